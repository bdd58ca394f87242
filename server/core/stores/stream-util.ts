/**
 * Small byte-stream helpers shared by the binary stores.
 */
import { AppError } from '../../common/errors.js';
import { droppedExternalBytes } from '../../process/young-collection.js';

/** The error every store throws when `append` is called at the wrong offset. */
export const offsetConflict = (offset: number, stored: number): AppError =>
  new AppError('conflict', `Upload-Offset ${offset} does not match the stored offset ${stored}.`);

/** The error every store throws once an append would exceed its byte budget. */
export const tooLarge = (maxBytes: number): AppError =>
  new AppError('too-large', `Max size exceeded (${maxBytes} bytes may still be stored).`);

/** Chunks of `data` as Buffers (views on the same memory, no copies). */
export const asBuffer = (chunk: Uint8Array): Buffer =>
  Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);

/**
 * Passes `data` through until `maxBytes` are reached: the chunk that crosses
 * the limit is cut at the limit, yielded, and then `too-large` is thrown, so
 * the consumer stores exactly the bytes up to the limit.
 */
export async function* limitBytes(data: AsyncIterable<Uint8Array>, maxBytes: number): AsyncGenerator<Buffer> {
  let seen = 0;
  for await (const raw of data) {
    const chunk = asBuffer(raw);
    if (chunk.length === 0) continue;
    if (seen + chunk.length > maxBytes) {
      const room = Math.max(0, maxBytes - seen);
      if (room > 0) yield chunk.subarray(0, room);
      throw tooLarge(maxBytes);
    }
    seen += chunk.length;
    yield chunk;
  }
}

/** The parts of a piece as one Buffer (no copy when there is one part). */
export const joinParts = (parts: Buffer[]): Buffer => (parts.length === 1 ? parts[0]! : Buffer.concat(parts));

/** The parts copied into `into`, which must have room for them all; a view of `into`. */
export const joinInto = (parts: Buffer[], into: Buffer): Buffer => {
  let at = 0;
  for (const p of parts) at += p.copy(into, at);
  return into.subarray(0, at);
};

/**
 * Lets go of chunks that are written and counts them for young collections
 * (`young-collection.ts`): counted only now, a collection finds them dead.
 * Counted when the next one was asked for, they were often still waiting to
 * be written, survived the collection and reached the old generation, where
 * only a major collection frees them.
 */
const dropWritten = (parts: Buffer[], bytes: number): void => {
  parts.length = 0;
  droppedExternalBytes(bytes);
};

/**
 * Regroups a byte stream into pieces of exactly `size` bytes (the last one
 * may be shorter), starting with `first` bytes for the first piece (to fill
 * a partial chunk). Calls `write(parts)` with the received chunks (views, not
 * copies) that make up each complete piece and, when the
 * stream ends or fails, for what is pending, then rethrows any failure; so
 * everything received is written. Holds at most two pieces in memory
 * (one being written, one being filled).
 */
export async function writeInPieces(
  data: AsyncIterable<Uint8Array>,
  size: number,
  first: number,
  write: (parts: Buffer[], final: boolean) => Promise<void>,
): Promise<number> {
  let want = first > 0 ? first : size;
  let parts: Buffer[] = [];
  let have = 0;
  let written = 0;
  // One write in flight while the next piece is read: the network and the
  // store work at the same time, and the pieces are written in order.
  let inflight: Promise<void> = Promise.resolve();
  const flush = async (final: boolean): Promise<void> => {
    if (have === 0) return;
    const piece = parts;
    parts = [];
    const n = have;
    have = 0;
    want = size;
    await inflight; // rethrows a failed earlier write: nothing after it is written
    inflight = write(piece, final).then(() => {
      written += n;
      dropWritten(piece, n);
    });
    // awaited later; until then a failure must not count as unhandled
    inflight.catch(() => undefined);
  };
  let failure: unknown;
  try {
    for await (const raw of data) {
      let chunk = asBuffer(raw);
      while (chunk.length > 0) {
        const take = Math.min(chunk.length, want - have);
        parts.push(chunk.subarray(0, take));
        have += take;
        chunk = chunk.subarray(take);
        if (have === want) await flush(false);
      }
    }
  } catch (e) {
    failure = e;
  }
  try {
    // Keep what arrived before a failure of the source, so the client can resume from there.
    await flush(true);
    await inflight;
  } catch (e) {
    failure ??= e;
  }
  if (failure !== undefined) throw failure;
  return written;
}
