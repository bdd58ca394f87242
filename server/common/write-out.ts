import type { Writable } from 'node:stream';

const wentAway = (): Error => new Error('The client went away.');

/** Runs `act` on `out` and settles with its callback; rejects at once when `out` is destroyed, or when it closes first. */
const settled = (out: Writable, act: (done: (e?: Error | null) => void) => void): Promise<void> =>
  new Promise((resolve, reject) => {
    if (out.destroyed) {
      reject(wentAway());
      return;
    }
    const closed = () => reject(wentAway());
    out.once('close', closed);
    act((e) => {
      out.off('close', closed);
      if (e) reject(e);
      else resolve();
    });
  });

/**
 * Writes `chunk` to `out` and resolves once `out` has taken it, so that the
 * caller may fill the same buffer again: sockets, HTTP responses and file
 * streams call back only when their bytes are handed to the system (a
 * Transform calls back while it still holds the chunk). Rejects when `out`
 * fails or closes first.
 */
export const writeOut = (out: Writable, chunk: Buffer): Promise<void> => settled(out, (done) => out.write(chunk, done));

/** Ends `out`; resolves once everything written is flushed, rejects when `out` fails or closes first. */
export const endOut = (out: Writable): Promise<void> => settled(out, (done) => out.end(done));
