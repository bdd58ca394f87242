/**
 * Sending file bytes and ZIPs: headers from the plan of
 * `core/downloads/file-response.ts`, bytes streamed from the store with
 * back-pressure; a client that goes away stops the store read.
 */
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';
import { AppError } from '../../common/errors.js';
import type { Logger } from '../../common/log.js';
import { contentDisposition } from '../../core/downloads/content-disposition.js';
import type { DownloadService } from '../../core/downloads/download.service.js';
import { fileSecurityHeaders, planFileResponse } from '../../core/downloads/file-response.js';
import { safeEntryName } from '../../core/downloads/zip-names.js';
import type { ZipEntry } from '../../core/downloads/zip-writer.js';
import type { FileRecord } from '../../core/shares/share.repository.js';
import type { BinaryReader } from '../../core/stores/binary-store.js';
import { pump } from '../pump.js';

const isPrematureClose = (e: unknown): boolean => (e as { code?: string }).code === 'ERR_STREAM_PREMATURE_CLOSE';

/** The security headers of file answers, set before anything can fail so error answers carry them too. */
export const setFileSecurityHeaders = (res: Response): void => {
  for (const [k, v] of Object.entries(fileSecurityHeaders)) res.setHeader(k, v);
};

/**
 * Resolves once the source has bytes (or ended) and rejects when it fails
 * first, so a store that cannot be read (S3 down) is answered with a status
 * instead of a dropped connection.
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

const stream = async (res: Response, open: () => Readable | Promise<void>, log: Logger): Promise<void> => {
  try {
    const src = open();
    if (src instanceof Promise) await src;
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
    if (!res.headersSent) throw e;
    log.warn('A download failed after it started', { error: String(e) });
    res.destroy();
  }
};

/** `stream` with positioned reads: a binary that cannot be opened is answered with a status. */
const pumpBody = async (res: Response, opening: Promise<BinaryReader>, start: number, end: number, log: Logger): Promise<void> => {
  const reader = await opening;
  try {
    await pump(res, reader, start, end);
  } catch (e) {
    if (res.destroyed) return;
    if (!res.headersSent) throw e;
    log.warn('A download failed after it started', { error: String(e) });
    res.destroy();
  }
};

/** Answers a file request: 200, 206, 304 or 416 with the contract's headers; HEAD without a body. */
export const sendFile = async (req: Request, res: Response, file: FileRecord, downloads: DownloadService, openRangeCap: number, log: Logger): Promise<void> => {
  const plan = planFileResponse(file, { range: req.get('range'), ifNoneMatch: req.get('if-none-match'), ifRange: req.get('if-range') }, openRangeCap);
  if (plan.status === 416) {
    throw new AppError('range-not-satisfiable', 'The requested range is not satisfiable.', { headers: plan.headers });
  }
  res.status(plan.status);
  for (const [k, v] of Object.entries(plan.headers)) res.setHeader(k, v);
  const body = plan.body;
  if (req.method === 'HEAD' || !body || body.end <= body.start) {
    res.end();
    return;
  }
  const reader = downloads.openReader(file);
  if (reader) await pumpBody(res, reader, body.start, body.end, log);
  else await stream(res, () => downloads.read(file, body.start, body.end), log);
};

/** Streams a ZIP named `<name>.zip` (always an attachment). */
export const sendZip = async (res: Response, name: string, entries: ZipEntry[], downloads: DownloadService, log: Logger): Promise<void> => {
  res.status(200);
  res.setHeader('Content-Type', 'application/zip');
  res.setHeader('Content-Disposition', contentDisposition('attachment', `${safeEntryName(name, 'share')}.zip`));
  res.setHeader('Cache-Control', 'no-store');
  await stream(res, () => downloads.writeZip(entries, res), log);
};

/** The repeated `file` query parameter (share-file ids). */
export const fileSelection = (req: Request): string[] => {
  const v = req.query['file'];
  if (v === undefined) return [];
  return (Array.isArray(v) ? v : [v]).filter((x): x is string => typeof x === 'string');
};
