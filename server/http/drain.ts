import type { IncomingMessage } from 'node:http';

/** Discards what is left of a request body (at most 64 MiB or 30 s, then the connection is dropped). */
export const drain = (req: IncomingMessage): Promise<void> =>
  new Promise((resolve) => {
    if (req.readableEnded || req.destroyed) return resolve();
    let left = 64 * 1024 * 1024;
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      req.destroy();
      done();
    }, 30_000);
    req.on('data', (c: Buffer) => {
      left -= c.length;
      if (left < 0) {
        req.destroy();
        done();
      }
    });
    req.once('end', done);
    req.once('close', done);
    req.resume();
  });
