/**
 * Sending file bytes and ZIPs of shares: a stored file becomes a
 * `SendableFile` for `send-file.ts`; bytes are streamed from the store. Every
 * answer carries `X-Content-Type-Options: nosniff` and
 * `Content-Security-Policy: sandbox`, so an uploaded HTML or SVG file can
 * never run script in Pier's origin.
 */
import type { Request, Response } from 'express';
import type { Logger } from '../common/log.js';
import type { DownloadService } from '../core/downloads/download.service.js';
import { safeEntryName } from '../core/downloads/zip-names.js';
import type { ZipEntry } from '../core/downloads/zip-writer.js';
import type { FileRecord } from '../core/shares/share.repository.js';
import { contentDisposition, isInlineSafe } from './content-disposition.js';
import { sendFile, streamBody } from './send-file.js';

/** Headers on every file answer, errors included. */
const fileSecurityHeaders: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': 'sandbox',
};

/** The security headers of file answers, set before anything can fail so error answers carry them too. */
export const setFileSecurityHeaders = (res: Response): void => {
  for (const [k, v] of Object.entries(fileSecurityHeaders)) res.setHeader(k, v);
};

/**
 * Answers a request for a stored file: an incomplete upload is served as far
 * as it got; the checksum is the entity tag; shares may be private, so every
 * use asks again (`private, no-cache`).
 */
export const sendStoredFile = (req: Request, res: Response, file: FileRecord, downloads: DownloadService, openRangeCap: number, log: Logger): Promise<void> =>
  sendFile(
    req,
    res,
    {
      size: Math.min(file.length, file.storedSize),
      type: file.mimetype,
      etag: file.checksum ? `"${file.checksum}"` : undefined,
      lastModified: new Date(file.created).toUTCString(),
      disposition: { type: isInlineSafe(file.mimetype) ? 'inline' : 'attachment', name: file.filename || file.id },
      cacheControl: 'private, no-cache',
      open: (start, end) => downloads.read(file, start, end),
      openReader: () => downloads.openReader(file),
    },
    log,
    openRangeCap,
  );

/** Streams a ZIP named `<name>.zip` (always an attachment); HEAD gets the headers without building the archive. */
export const sendZip = async (req: Request, res: Response, name: string, entries: ZipEntry[], downloads: DownloadService, log: Logger): Promise<void> => {
  res.status(200);
  res.setHeader('Content-Type', 'application/zip');
  res.setHeader('Content-Disposition', contentDisposition('attachment', `${safeEntryName(name, 'share')}.zip`));
  res.setHeader('Cache-Control', 'no-store');
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  await streamBody(res, () => downloads.writeZip(entries, res), log);
};

/** The repeated `file` query parameter (share-file ids). */
export const fileSelection = (req: Request): string[] => {
  const v = req.query['file'];
  if (v === undefined) return [];
  return (Array.isArray(v) ? v : [v]).filter((x): x is string => typeof x === 'string');
};
