/**
 * Counts the body bytes an answer hands to its connection and tells when it
 * ended: `finished` only when the whole answer was written out; a client that
 * went away (its socket destroyed mid-body) or a stream that failed ends it
 * `finished: false`. The activity log records the transfer from this, so
 * `complete` never claims bytes that did not leave.
 */
import type { Response } from 'express';

export interface TransferOutcome {
  bytes: number;
  finished: boolean;
  status: number;
}

export const meterTransfer = (res: Response, onEnd: (o: TransferOutcome) => void): void => {
  let bytes = 0;
  const count = (chunk: unknown, encoding: unknown): void => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    if (typeof chunk === 'string') bytes += Buffer.byteLength(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
    else if (chunk instanceof Uint8Array) bytes += chunk.byteLength;
  };
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  (res as { write: unknown }).write = (...args: unknown[]): boolean => {
    count(args[0], args[1]);
    return write(...args);
  };
  (res as { end: unknown }).end = (...args: unknown[]): Response => {
    count(args[0], args[1]);
    return end(...args);
  };
  let done = false;
  const report = (finished: boolean) => {
    if (done) return;
    done = true;
    onEnd({ bytes, finished, status: res.statusCode });
  };
  res.once('finish', () => report(true));
  res.once('close', () => report(res.writableFinished));
};
