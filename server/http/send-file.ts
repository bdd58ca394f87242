/**
 * The one way Pier sends a file: downloads, covers and booklets, `/custom`.
 * HEAD, `If-None-Match` (304), single ranges (206, 416) with
 * `Accept-Ranges: bytes`, `Content-Disposition` through
 * `content-disposition.ts`, and the caller's cache policy. Bytes are streamed
 * with back-pressure; a client that goes away stops the read.
 */
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';
import { AppError } from '../common/errors.js';
import type { Logger } from '../common/log.js';
import type { BinaryReader } from '../core/stores/binary-store.js';
import { contentDisposition } from './content-disposition.js';
import { pump } from './pump.js';
import { etagMatches, ifRangeAllows, parseRange } from './range.js';

/** A file to send, described without touching its bytes. */
export interface SendableFile {
  /** the bytes that exist */
  size: number;
  type: string;
  /** a quoted entity tag; without one there is no `ETag` and no 304 */
  etag?: string | undefined;
  /** an HTTP date */
  lastModified?: string | undefined;
  /** `Content-Disposition`; none when absent */
  disposition?: { type: 'inline' | 'attachment'; name: string } | undefined;
  cacheControl: string;
  /** the bytes `[start, end)`: a stream, or bytes already in memory */
  open(start: number, end: number): Readable | Buffer;
  /** positioned reads, used instead of `open` where the file offers them (see `pump.ts`) */
  openReader?: (() => Promise<BinaryReader> | undefined) | undefined;
}

const isPrematureClose = (e: unknown): boolean => (e as { code?: string }).code === 'ERR_STREAM_PREMATURE_CLOSE';

/**
 * Resolves once the source has bytes (or ended) and rejects when it fails
 * first, so a source that cannot be read (S3 down, file gone) is answered
 * with a status instead of a dropped connection.
 */
const firstBytes = (src: Readable): Promise<void> =>
  new Promise((resolve, reject) => {
    const done = (e?: unknown) => {
      src.off('readable', ok);
      src.off('end', ok);
      src.off('error', done);
      if (e === undefined) resolve();
      else reject(e instanceof Error ? e : new Error(String(e)));
    };
    const ok = () => done();
    src.once('readable', ok);
    src.once('end', ok);
    src.once('error', done);
  });

/** The headers that describe the file: an error answered in its place must not carry them. */
const FILE_HEADERS = ['Content-Type', 'Content-Length', 'Content-Disposition', 'Content-Range', 'Accept-Ranges', 'ETag', 'Last-Modified', 'Cache-Control'];

/** Hands a failure before the head to the error mapping, without the file's headers. */
const failBeforeHead = (res: Response, e: unknown): never => {
  for (const h of FILE_HEADERS) res.removeHeader(h);
  throw e;
};

/**
 * Sends the body that `open` gives: a stream is piped (after its first bytes),
 * a promise is awaited (a writer such as the ZIP writes to `res` itself). A
 * failure before the head is sent is thrown for the error mapping; after
 * it, the connection is dropped.
 */
export const streamBody = async (res: Response, open: () => Readable | Buffer | Promise<void>, log: Logger): Promise<void> => {
  try {
    const src = open();
    if (src instanceof Promise) await src;
    else if (Buffer.isBuffer(src)) res.end(src);
    else {
      try {
        await firstBytes(src);
      } catch (e) {
        src.destroy();
        throw e;
      }
      await pipeline(src, res);
    }
  } catch (e) {
    if (isPrematureClose(e) || res.destroyed) return;
    if (!res.headersSent) failBeforeHead(res, e);
    log.warn('Sending a file failed after it started', { error: String(e) });
    res.destroy();
  }
};

/** A type that is no plain `type/subtype[; params]` (older rows may hold anything) is sent as bytes. */
const headerSafeType = (type: string): string =>
  /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+(\s*;[\x20-\x7e]*)?$/.test(type) ? type : 'application/octet-stream';

/**
 * Answers a file request: 304 when `If-None-Match` matches, 416 (thrown, with
 * `Content-Range: bytes *\/size`) for a range that is not satisfiable, 206 for a
 * single range honoured under `If-Range`, else 200; HEAD without a body. An
 * open range `bytes=a-` gets at most `openRangeCap` bytes.
 */
export const sendFile = async (req: Request, res: Response, file: SendableFile, log: Logger, openRangeCap = Infinity): Promise<void> => {
  const headers: Record<string, string> = { 'Accept-Ranges': 'bytes', 'Cache-Control': file.cacheControl };
  if (file.lastModified) headers['Last-Modified'] = file.lastModified;
  if (file.etag) headers['ETag'] = file.etag;
  let status = 200;
  let body: { start: number; end: number } | undefined;
  if (file.etag && etagMatches(req.get('if-none-match'), file.etag)) status = 304;
  else {
    headers['Content-Type'] = headerSafeType(file.type);
    if (file.disposition) headers['Content-Disposition'] = contentDisposition(file.disposition.type, file.disposition.name);
    const full = { kind: 'full' as const };
    const range = ifRangeAllows(req.get('if-range'), file.etag, file.lastModified) ? parseRange(req.get('range'), file.size, openRangeCap) : full;
    if (range.kind === 'unsatisfiable') {
      throw new AppError('range-not-satisfiable', 'The requested range is not satisfiable.', {
        headers: { 'Accept-Ranges': 'bytes', 'Content-Range': `bytes */${file.size}` },
      });
    }
    if (range.kind === 'partial') {
      status = 206;
      headers['Content-Range'] = `bytes ${range.start}-${range.end}/${file.size}`;
      body = { start: range.start, end: range.end + 1 };
    } else body = { start: 0, end: file.size };
    headers['Content-Length'] = String(body.end - body.start);
  }
  res.status(status);
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  if (req.method === 'HEAD' || !body || body.end <= body.start) {
    res.end();
    return;
  }
  const { start, end } = body;
  await streamBody(
    res,
    () => {
      const reader = file.openReader?.();
      return reader ? reader.then((r) => pump(res, r, start, end)) : file.open(start, end);
    },
    log,
  );
};
