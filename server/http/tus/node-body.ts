/**
 * The body of a Node request as the web stream `@tus/server` reads, and when
 * its client last sent bytes (for the locker's stall check).
 */
import type { IncomingMessage } from 'node:http';

export interface WebBody {
  /** reads the request only as fast as the stream is read; errors when the client goes away mid-body */
  stream: ReadableStream<Uint8Array>;
  /** lets the request go: what the stream did not read can then be drained */
  release(): void;
}

export const bodyOf = (req: IncomingMessage): WebBody => {
  let ctrl: ReadableStreamDefaultController<Uint8Array> | undefined;
  const onData = (chunk: Buffer): void => {
    ctrl!.enqueue(chunk);
    if ((ctrl!.desiredSize ?? 0) <= 0) req.pause();
  };
  const onEnd = (): void => {
    release();
    ctrl!.close();
  };
  const onClose = (): void => {
    release();
    ctrl!.error(new Error('The client closed the connection before its body was complete.'));
  };
  const release = (): void => {
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('close', onClose);
  };
  const stream = new ReadableStream<Uint8Array>(
    {
      start(c) {
        ctrl = c;
        if (req.readableEnded) return c.close();
        req.on('data', onData);
        req.once('end', onEnd);
        req.once('close', onClose);
        req.pause();
      },
      pull() {
        req.resume();
      },
      cancel: release,
    },
    { highWaterMark: 1 },
  );
  return { stream, release };
};

/**
 * When the client of `req` last sent bytes (ms since the epoch), as far as
 * can be told when asked: bytes arrived on its connection since the previous
 * call, or bytes wait unread (the store is slow, not the client).
 */
export const lastReceived = (req: IncomingMessage): (() => number) => {
  let seen = req.socket?.bytesRead ?? 0;
  let at = Date.now();
  return () => {
    const read = req.socket?.bytesRead ?? 0;
    if (read !== seen || req.readableLength > 0) {
      seen = read;
      at = Date.now();
    }
    return at;
  };
};
