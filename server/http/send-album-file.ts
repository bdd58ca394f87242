/** Covers and booklets as HTTP answers, for the gateway's routes and the rooms'. */
import { createReadStream } from 'node:fs';
import type { Request, Response } from 'express';
import { notFound } from '../common/errors.js';
import type { Logger } from '../common/log.js';
import type { AlbumFileKind, CoverResult } from '../player/covers/covers.service.js';
import { sendFile } from './send-file.js';

/**
 * A cover or booklet: inline, cacheable for an hour (the entity tag changes
 * with the file); ranges too, so a PDF viewer can seek in a booklet.
 */
export const sendAlbumFile = (req: Request, res: Response, kind: AlbumFileKind, r: CoverResult, log: Logger): Promise<void> => {
  if (r.kind === 'not-found') throw notFound(kind === 'cover' ? 'The cover' : 'The booklet');
  return sendFile(
    req,
    res,
    {
      size: r.kind === 'bytes' ? r.data.length : r.size,
      type: r.contentType,
      etag: r.etag,
      disposition: { type: 'inline', name: r.filename },
      cacheControl: 'private, max-age=3600',
      open: (start, end) => (r.kind === 'bytes' ? r.data.subarray(start, end) : createReadStream(r.path, { start, end: end - 1 })),
    },
    log,
  );
};
