/**
 * What happens when a file is complete (its stored size equals its length):
 * the MIME type is detected from its first bytes, length and received size
 * are fixed, and the checksum and CRC-32 are written when the bytes were
 * digested while they streamed in, otherwise the checksum is queued for the
 * background queue (and a ZIP computes the CRC when it reads the file).
 */
import type { FileDigest } from '../checksums/file-digest.js';
import type { BinaryRef, BinaryStore } from '../stores/binary-store.js';
import { completeFile } from './file.repository.js';
import { detectMime, MIME_HEAD_BYTES } from './mime-detect.js';
import type { UploadDeps } from './upload-deps.js';

/** The first `n` bytes of a binary (fewer when it is shorter). */
export const readHead = async (store: BinaryStore, ref: BinaryRef, n: number): Promise<Buffer> => {
  const parts: Buffer[] = [];
  let have = 0;
  for await (const chunk of store.read(ref, 0, n) as AsyncIterable<Buffer>) {
    parts.push(chunk);
    have += chunk.length;
    if (have >= n) break;
  }
  return Buffer.concat(parts, have).subarray(0, n);
};

/** Keeps the first `MIME_HEAD_BYTES` of a stream as its chunks pass, for `finishFile`. */
export const headKeeper = () => {
  const parts: Buffer[] = [];
  let have = 0;
  return {
    take(chunk: Buffer): void {
      if (have >= MIME_HEAD_BYTES) return;
      // copied: a view would keep the whole chunk for as long as the upload runs
      parts.push(Buffer.from(chunk.subarray(0, MIME_HEAD_BYTES - have)));
      have += Math.min(chunk.length, MIME_HEAD_BYTES - have);
    },
    /** the kept bytes */
    head: (): Buffer => Buffer.concat(parts, have),
  };
};

export interface CompletingFile {
  id: string;
  fileId: string;
  location: string;
  filename: string;
  /** the declared type */
  mimetype: string;
}

/**
 * Completes a file of `size` bytes; `digest` when it is known, `seen` the
 * first bytes when they passed through this process (read from the store otherwise).
 */
export const finishFile = async (
  deps: UploadDeps,
  store: BinaryStore,
  f: CompletingFile,
  size: number,
  digest: FileDigest | undefined,
  seen?: Buffer,
): Promise<void> => {
  const head =
    size === 0
      ? Buffer.alloc(0)
      : seen && seen.length >= Math.min(size, MIME_HEAD_BYTES)
        ? seen
        : await readHead(store, { fileId: f.fileId, location: f.location }, MIME_HEAD_BYTES);
  const mimetype = await detectMime(head, f.filename, f.mimetype);
  const checksum = digest?.checksum;
  // the checksum job exists before the file is complete: a server that dies in between leaves it to another
  if (!checksum) await deps.checksums.claim(f.fileId);
  try {
    await completeFile(deps.db, { id: f.id, fileId: f.fileId, length: size, mimetype, checksum, crc32: digest?.crc32 });
  } catch (e) {
    if (!checksum) await deps.checksums.drop(f.fileId).catch(() => undefined);
    throw e;
  }
  if (!checksum) await deps.checksums.enqueue(f.fileId);
};
