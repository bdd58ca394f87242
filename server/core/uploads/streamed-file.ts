/**
 * One multipart file part streamed straight into the default store: its
 * length is unknown until it ends, so it reserves quota in steps while the
 * bytes arrive and is hashed on the way. On success the file is complete
 * with its checksum; on failure the caller removes it (all or nothing).
 */
import { randomId } from '../../common/ids.js';
import { RunningDigest } from '../checksums/file-digest.js';
import type { BinaryStore } from '../stores/binary-store.js';
import { finishFile, headKeeper } from './completion.js';
import { mapStoreError } from './domain-checks.js';
import { cleanFileName } from './file-name.js';
import { deleteFileRows } from './file.repository.js';
import type { FilePart } from './multipart.js';
import type { PendingRequest } from './pending-uploads.js';
import { growReservation, reserveNewFile } from './quota.js';
import { shareBounds, type UploadDeps } from './upload-deps.js';

/** Quota reserved per step while a part of unknown length streams in. */
export const RESERVE_STEP = 8 * 1024 * 1024;

/** A file this request created, to remove again when the request fails. */
export interface CreatedFile {
  fileId: string;
  location: string;
  store: BinaryStore;
}

const asBuffer = (c: Uint8Array): Buffer => (Buffer.isBuffer(c) ? c : Buffer.from(c.buffer, c.byteOffset, c.byteLength));

/**
 * Stores `part` as a new file of share `share` (already access-checked).
 * Records the file in `created` before any byte is stored; throws
 * `too-large` when the share's quota runs out, `domain-check` for a
 * configured store failure, or the store's error.
 */
export const storeStreamedFile = async (
  deps: UploadDeps,
  share: { id: string; name: string | null },
  part: FilePart,
  created: CreatedFile[],
  pending: PendingRequest,
): Promise<void> => {
  const { db, share: rules } = deps;
  const store = deps.stores.defaultStore;
  const fileId = randomId();
  const id = randomId();
  const filename = cleanFileName(part.filename);
  const mimetype = part.mimeType || 'application/octet-stream';
  // marked before the binary exists, so a crash from here on leaves nothing behind for good
  await pending.add('file', fileId, { store: store.id, location: '' });
  const location = await store.create(fileId, { shareId: share.id, shareName: share.name, fileName: filename });
  created.push({ fileId, location, store });
  await pending.setLocation(fileId, location);
  await reserveNewFile(db, shareBounds(deps), {
    id,
    fileId,
    shareId: share.id,
    filename,
    mimetype,
    length: 0,
    store: store.id,
    location,
    created: deps.clock.now(),
  });
  // A first step right away: a streaming file must not look complete (length = received = 0).
  let reserved = await growReservation(db, rules.maxSize, { shareId: share.id, fileId, reserved: 0 }, 0, RESERVE_STEP);
  const hash = new RunningDigest();
  const kept = headKeeper();
  let count = 0;
  async function* guarded(): AsyncGenerator<Buffer> {
    for await (const raw of part.stream as AsyncIterable<Uint8Array>) {
      const chunk = asBuffer(raw);
      if (count + chunk.length > reserved) {
        reserved = await growReservation(db, rules.maxSize, { shareId: share.id, fileId, reserved }, count + chunk.length - reserved, RESERVE_STEP);
      }
      hash.update(chunk);
      kept.take(chunk);
      count += chunk.length;
      yield chunk;
    }
  }
  let written: number;
  try {
    written = await store.append({ fileId, location }, 0, guarded(), Number.MAX_SAFE_INTEGER);
  } catch (e) {
    throw mapStoreError(e, rules.databaseDomainChecks);
  }
  if (written !== count) {
    throw new Error(`The store kept ${written} of ${count} bytes of ${filename}.`);
  }
  await finishFile(deps, store, { id, fileId, location, filename, mimetype }, count, hash.digest(), kept.head());
};

/** Removes the files of a failed request: binaries and rows. Failures are logged, not thrown. */
export const removeCreated = async (deps: UploadDeps, created: CreatedFile[]): Promise<void> => {
  for (const f of created) {
    try {
      await deleteFileRows(deps.db, f.fileId);
      await f.store.delete({ fileId: f.fileId, location: f.location });
    } catch (e) {
      deps.log.warn('Could not remove a file of a failed upload', { fileId: f.fileId, error: e instanceof Error ? e.message : String(e) });
    }
  }
};
