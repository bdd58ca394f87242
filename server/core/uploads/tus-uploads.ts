import { Readable } from 'node:stream';
/**
 * The core of tus uploads, called by the tus adapter in `server/http/tus/`:
 * creation reserves the declared length against the share's quota before a
 * byte is stored; writes append at the stored offset (the offset always
 * comes from the store, so any process can continue an upload); the file
 * completes when the stored size reaches the declared length.
 *
 * The SHA-256 and CRC-32 are computed while the bytes stream in as long as
 * this process saw every byte of the file in order; otherwise (resumed
 * elsewhere, a restart) the checksum queue computes the checksum after
 * completion.
 */
import { badRequest, notFound } from '../../common/errors.js';
import { randomId } from '../../common/ids.js';
import { RunningDigest } from '../checksums/file-digest.js';
import type { Accessor } from '../shares/accessor.js';
import { requireShareAccess } from '../shares/share-access.js';
import { folderNameOf } from '../shares/share.repository.js';
import type { BinaryStore } from '../stores/binary-store.js';
import { finishFile, headKeeper } from './completion.js';
import { mapStoreError } from './domain-checks.js';
import { cleanFileName } from './file-name.js';
import { deleteFileRows, fileInShare, findFile, refOf, setRealSize, shareSize, type UploadFile } from './file.repository.js';
import { reserveNewFile, shareLimit } from './quota.js';
import { shareBounds, type UploadDeps } from './upload-deps.js';

export interface TusFileInfo {
  /** the tus upload id = the share-file id, chosen by the adapter */
  id: string;
  length: number;
  name: string;
  type: string;
}

/**
 * `state`, `write` and `remove` act on file `id` only when it belongs to share
 * `shareId` (the share the adapter checked the request against); a file of
 * any other share is treated as unknown.
 */
export interface TusUploads {
  /** `not-found` unless the accessor may use the share (and the file belongs to it, when given). */
  requireAccess(a: Accessor, shareId: string, fileId?: string): Promise<void>;
  /**
   * Creates the file in a share the request passed `requireAccess` for;
   * `bad-request` for a name or type with control characters or a type that
   * is no MIME type, `too-large` (with the room left) when the share lacks room.
   */
  create(shareId: string, info: TusFileInfo): Promise<void>;
  /** The bytes the share still takes (`max-size` less what its files hold or reserved), at least 0. */
  room(shareId: string): Promise<number>;
  /** Declared length and stored offset, or undefined when the share holds no file `id`. */
  state(shareId: string, id: string): Promise<{ length: number; offset: number } | undefined>;
  /** Appends at `offset`; resolves with the new offset; `not-found` when the share holds no file `id`. */
  write(shareId: string, id: string, offset: number, data: AsyncIterable<Uint8Array>): Promise<number>;
  /** Removes the file (termination); a file missing from the share is not an error. */
  remove(shareId: string, id: string): Promise<void>;
}

// C0 and C1 controls and DEL. Names and types with them are refused rather
// than cleaned: the type goes into response headers as it is.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const TOKEN = /[A-Za-z0-9!#$%&'*+.^_`|~-]+/.source;
/**
 * `type/subtype` with optional parameters (RFC 9110 §8.3.1), printable ASCII
 * only, as a `Content-Type` header may carry it.
 */
const MIME_TYPE = new RegExp(
  String.raw`^${TOKEN}/${TOKEN}(?:[ \t]*;[ \t]*${TOKEN}=(?:${TOKEN}|"(?:[\t\x20\x21\x23-\x5b\x5d-\x7e]|\\[\t\x20-\x7e])*"))*$`,
);
/** The size of the `mimetype` column. */
const MAX_TYPE_LENGTH = 254;

/** `bad-request` unless the uploader's name and type are fit to be stored. */
const checkNameAndType = (info: TusFileInfo): void => {
  if (CONTROL.test(info.name)) throw badRequest('filename', 'The file name must not contain control characters.');
  if (CONTROL.test(info.type)) throw badRequest('filetype', 'The file type must not contain control characters.');
  const type = info.type.trim();
  if (type !== '' && (type.length > MAX_TYPE_LENGTH || !MIME_TYPE.test(type))) throw badRequest('filetype', 'The file type must be a MIME type (type/subtype).');
};

/** Running digests of uploads this process saw from byte 0, bounded. */
const MAX_HASHES = 1000;

const asBuffer = (c: Uint8Array): Buffer => (Buffer.isBuffer(c) ? c : Buffer.from(c.buffer, c.byteOffset, c.byteLength));

export const createTusUploads = (deps: UploadDeps): TusUploads => {
  const { db } = deps;
  const hashes = new Map<string, { hash: RunningDigest; at: number }>();
  const forget = (id: string): void => {
    hashes.delete(id);
  };

  const storeOf = (f: UploadFile): BinaryStore => {
    const s = deps.stores.get(f.store);
    if (!s) throw new Error(`The store "${f.store}" of file ${f.id} is not enabled.`);
    return s;
  };

  const hashFor = (f: UploadFile, offset: number): { hash: RunningDigest; at: number } | undefined => {
    let h = hashes.get(f.id);
    if (offset === 0 || (h && h.at !== offset)) {
      forget(f.id);
      h = offset === 0 ? { hash: new RunningDigest(), at: 0 } : undefined;
    }
    hashes.delete(f.id);
    if (h) {
      hashes.set(f.id, h);
      if (hashes.size > MAX_HASHES) forget(hashes.keys().next().value!);
    }
    return h;
  };

  /** The file `id` when it belongs to share `shareId`. */
  const fileIn = async (shareId: string, id: string): Promise<UploadFile | undefined> => {
    const f = await findFile(db, id);
    return f?.shareId === shareId ? f : undefined;
  };

  return {
    async requireAccess(a, shareId, fileId) {
      await requireShareAccess(db, a, shareId);
      if (fileId !== undefined && !(await fileInShare(db, shareId, fileId))) throw notFound('The upload');
    },

    async create(shareId, info) {
      if (!Number.isSafeInteger(info.length) || info.length < 0) throw badRequest('Upload-Length', 'The upload length must be a non-negative integer.');
      checkNameAndType(info);
      const shareName = await folderNameOf(db, shareId);
      const store = deps.stores.defaultStore;
      const fileId = randomId();
      const filename = cleanFileName(info.name);
      const mimetype = info.type.trim() || 'application/octet-stream';
      const location = await store.create(fileId, { shareId, shareName, fileName: filename });
      try {
        await reserveNewFile(db, shareBounds(deps), {
          id: info.id,
          fileId,
          shareId,
          filename,
          mimetype,
          length: info.length,
          store: store.id,
          location,
          created: deps.clock.now(),
        });
      } catch (e) {
        await store.delete({ fileId, location }).catch(() => undefined);
        throw e;
      }
      if (info.length === 0) {
        await finishFile(deps, store, { id: info.id, fileId, location, filename, mimetype }, 0, new RunningDigest().digest());
      }
    },

    async room(shareId) {
      return Math.max(0, (await shareLimit(db, shareId, shareBounds(deps).maxSize)) - (await shareSize(db, shareId)));
    },

    async state(shareId, id) {
      const f = await fileIn(shareId, id);
      if (!f) return undefined;
      return { length: f.length, offset: await storeOf(f).size(refOf(f)) };
    },

    async write(shareId, id, offset, data) {
      const f = await fileIn(shareId, id);
      if (!f) throw notFound('The upload');
      const store = storeOf(f);
      const h = hashFor(f, offset);
      // the first bytes of a file sent from its start, for the type detection when it completes
      const kept = offset === 0 ? headKeeper() : undefined;
      let hashed = offset;
      async function* tap(): AsyncGenerator<Buffer> {
        // a failed store must not destroy the request: the client is still sending and must get the answer
        const source = data instanceof Readable ? data.iterator({ destroyOnReturn: false }) : data;
        for await (const raw of source) {
          const chunk = asBuffer(raw);
          h?.hash.update(chunk);
          kept?.take(chunk);
          hashed += chunk.length;
          yield chunk;
        }
      }
      let failure: unknown;
      let stored: number | undefined;
      try {
        stored = offset + (await store.append(refOf(f), offset, tap(), f.length - offset));
      } catch (e) {
        failure = e;
        stored = await store.size(refOf(f)).catch(() => undefined);
      }
      if (h) {
        if (stored === hashed) h.at = hashed;
        else forget(f.id);
      }
      if (stored !== undefined) {
        if (stored === f.length && f.realSize !== f.length) {
          const digest = h && stored === hashed ? h.hash.digest() : undefined;
          hashes.delete(f.id);
          await finishFile(deps, store, f, stored, digest, kept?.head());
        } else if (stored !== f.length) {
          await setRealSize(db, f.id, stored);
        }
      }
      if (failure !== undefined) throw mapStoreError(failure, deps.share.databaseDomainChecks);
      return stored!;
    },

    async remove(shareId, id) {
      const f = await fileIn(shareId, id);
      if (!f) return;
      forget(id);
      await deleteFileRows(db, f.fileId);
      await storeOf(f).delete(refOf(f));
    },
  };
};
