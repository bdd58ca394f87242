/**
 * Sends bytes `[start, end)` of a binary to a response with positioned reads
 * into two buffers that are reused for the whole answer: one is read while
 * the other is on its way to the socket, and a buffer is read into again
 * only once the socket has taken its bytes. No memory is allocated per
 * read, so a download costs neither page faults nor garbage collection.
 */
import type { ServerResponse } from 'node:http';
import type { BinaryReader } from '../core/stores/binary-store.js';

/** The size of one read. */
export const PUMP_BYTES = 1024 * 1024;

/** Resolves when `res` can take more bytes, rejects when it closed first. */
const writable = (res: ServerResponse): Promise<void> =>
  new Promise((resolve, reject) => {
    const done = (e?: Error) => {
      res.off('drain', ok);
      res.off('close', closed);
      if (e) reject(e);
      else resolve();
    };
    const ok = () => done();
    const closed = () => done(new Error('The client went away.'));
    res.on('drain', ok);
    res.on('close', closed);
  });

/** Writes `chunk`; resolves once the socket took it (the buffer may then be reused). */
const send = (res: ServerResponse, chunk: Buffer): Promise<void> =>
  new Promise((resolve, reject) => {
    res.write(chunk, (e) => (e ? reject(e) : resolve()));
  });

/**
 * Sends `[start, end)` from `reader` and ends `res`; always closes the
 * reader. Rejects when a read fails, the binary ends early or the client
 * went away.
 */
export const pump = async (res: ServerResponse, reader: BinaryReader, start: number, end: number): Promise<void> => {
  const size = Math.min(PUMP_BYTES, end - start);
  const buffers = [Buffer.allocUnsafeSlow(size), Buffer.allocUnsafeSlow(size)];
  const sent: Array<Promise<void>> = [Promise.resolve(), Promise.resolve()];
  try {
    let position = start;
    for (let i = 0; position < end; i ^= 1) {
      await sent[i];
      const n = await reader.read(buffers[i]!.subarray(0, Math.min(size, end - position)), position);
      if (n === 0) throw new Error(`The binary ended at byte ${position} of ${end}.`);
      position += n;
      if (res.destroyed) throw new Error('The client went away.');
      sent[i] = send(res, buffers[i]!.subarray(0, n));
      // awaited before the buffer is reused; until then a failure must not count as unhandled
      sent[i]!.catch(() => undefined);
      if (res.writableNeedDrain) await writable(res);
    }
    await Promise.all(sent);
    await new Promise<void>((resolve, reject) => res.end((e?: Error | null) => (e ? reject(e) : resolve())));
  } finally {
    await reader.close();
  }
};
