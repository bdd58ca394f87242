/**
 * Request bodies that arrive too slowly are cut. A body that trickles a byte
 * every few seconds never trips the idle timeout, so a few addresses could
 * hold every connection of the server for as long as they like. Each body is
 * measured over windows of `window`: when its average rate over a window is
 * below `minRate` bytes a second, the connection gets 408 (when no answer has
 * started) and is closed. Time in which the server itself does not read
 * (the socket paused for back-pressure: a slow store, a handler not yet
 * reading) does not count, and a window in which the server read for less
 * than half the time passes without a verdict. The default minimum is far
 * below any real phone on bad Wi-Fi.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from '../common/log.js';

export interface BodyRate {
  /** bytes a second; 0 turns the check off */
  minRate: number;
  /** milliseconds */
  window: number;
}

const expectsBody = (req: IncomingMessage): boolean =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

const answer = (minRate: number): string => {
  const body = JSON.stringify({
    success: false,
    message: `The request body arrived slower than ${minRate} bytes a second; send it again on a faster connection.`,
    code: 'error.timeout',
  });
  return (
    'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
};

/** Watches one request's body until it is complete or its connection closes. */
const watch = (req: IncomingMessage, res: ServerResponse, rate: BodyRate, onCut: (req: IncomingMessage) => void): void => {
  const socket: Socket = req.socket;
  let start = Date.now();
  let from = socket.bytesRead;
  let pausedMs = 0;
  let pausedSince: number | undefined = socket.isPaused() ? start : undefined;
  const onPause = () => {
    pausedSince ??= Date.now();
  };
  const onResume = () => {
    if (pausedSince !== undefined) pausedMs += Date.now() - pausedSince;
    pausedSince = undefined;
  };
  const stop = () => {
    clearTimeout(timer);
    socket.off('pause', onPause);
    socket.off('resume', onResume);
    socket.off('close', stop);
    req.off('end', stop);
  };
  const check = () => {
    if (req.complete || socket.destroyed) return stop();
    const now = Date.now();
    const reading = now - start - pausedMs - (pausedSince !== undefined ? now - pausedSince : 0);
    const got = socket.bytesRead - from;
    if (reading >= rate.window / 2 && got * 1000 < rate.minRate * reading) {
      stop();
      onCut(req);
      if (!res.headersSent && socket.writable) socket.end(answer(rate.minRate), () => socket.destroy());
      // a client that does not read the answer is not waited for
      setTimeout(() => socket.destroy(), 1000).unref();
      return;
    }
    start = now;
    from = socket.bytesRead;
    pausedMs = 0;
    if (pausedSince !== undefined) pausedSince = now;
    timer = setTimeout(check, rate.window);
    timer.unref();
  };
  let timer = setTimeout(check, rate.window);
  timer.unref();
  socket.on('pause', onPause);
  socket.on('resume', onResume);
  socket.once('close', stop);
  // an 'end' listener does not start the body flowing; it ends the watch as soon as the body is read
  req.once('end', stop);
};

export const cutSlowBodies = (server: Server, rate: BodyRate, log: Logger, clientAddress: (req: IncomingMessage) => string): void => {
  if (rate.minRate <= 0) return;
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!expectsBody(req)) return;
    watch(req, res, rate, (r) => log.info('Cut a request body arriving too slowly', { client: clientAddress(r), method: r.method, path: r.url?.split('?')[0] }));
  });
};
