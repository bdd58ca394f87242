import type { Writable } from 'node:stream';

/**
 * Writes `chunk` to `out` and resolves once `out` has taken it, so that the
 * caller may fill the same buffer again: sockets, HTTP responses and file
 * streams call back only when their bytes are handed to the system (a
 * Transform calls back while it still holds the chunk). Rejects when `out`
 * fails or closes first.
 */
export const writeOut = (out: Writable, chunk: Buffer): Promise<void> =>
  new Promise((resolve, reject) => {
    const closed = () => reject(new Error('The client went away.'));
    out.once('close', closed);
    out.write(chunk, (e) => {
      out.off('close', closed);
      if (e) reject(e);
      else resolve();
    });
  });

/** Ends `out`; resolves once everything written is flushed, rejects when `out` fails or closes first. */
export const endOut = (out: Writable): Promise<void> =>
  new Promise((resolve, reject) => {
    if (out.destroyed) {
      reject(new Error('The client went away.'));
      return;
    }
    const closed = () => reject(new Error('The client went away.'));
    out.once('close', closed);
    out.end((e?: Error | null) => {
      out.off('close', closed);
      if (e) reject(e);
      else resolve();
    });
  });
