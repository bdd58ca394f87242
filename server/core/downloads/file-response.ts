/**
 * What to answer to a file request, decided without touching the bytes:
 * status, headers and the byte range to stream. The HTTP layer only applies
 * it. Every answer carries `X-Content-Type-Options: nosniff` and
 * `Content-Security-Policy: sandbox`, so an uploaded HTML or SVG file can
 * never run script in Pier's origin.
 */
import type { FileRecord } from '../shares/share.repository.js';
import { contentDisposition, isInlineSafe } from './content-disposition.js';
import { etagMatches, ifRangeAllows, parseRange } from './range.js';

export interface FileRequest {
  range?: string | undefined;
  ifNoneMatch?: string | undefined;
  ifRange?: string | undefined;
}

export interface FilePlan {
  status: 200 | 206 | 304 | 416;
  headers: Record<string, string>;
  /** bytes `[start, end)` to send; null for no body */
  body: { start: number; end: number } | null;
}

/** Headers on every file answer, errors included. */
export const fileSecurityHeaders: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': 'sandbox',
};

export const planFileResponse = (file: FileRecord, req: FileRequest, openRangeCap: number): FilePlan => {
  // The bytes that exist: an incomplete upload is served as far as it got.
  const length = Math.min(file.length, file.storedSize);
  const etag = file.checksum ? `"${file.checksum}"` : undefined;
  const lastModified = new Date(file.created).toUTCString();
  const headers: Record<string, string> = {
    ...fileSecurityHeaders,
    'Accept-Ranges': 'bytes',
    'Last-Modified': lastModified,
    'Cache-Control': 'private, no-cache',
  };
  if (etag) headers['ETag'] = etag;
  if (etag && etagMatches(req.ifNoneMatch, etag)) return { status: 304, headers, body: null };

  headers['Content-Type'] = headerSafeType(file.mimetype);
  headers['Content-Disposition'] = contentDisposition(isInlineSafe(file.mimetype) ? 'inline' : 'attachment', file.filename || file.id);
  const range = ifRangeAllows(req.ifRange, etag, lastModified) ? parseRange(req.range, length, openRangeCap) : { kind: 'full' as const };
  if (range.kind === 'unsatisfiable') {
    return { status: 416, headers: { ...fileSecurityHeaders, 'Accept-Ranges': 'bytes', 'Content-Range': `bytes */${length}` }, body: null };
  }
  if (range.kind === 'partial') {
    headers['Content-Range'] = `bytes ${range.start}-${range.end}/${length}`;
    headers['Content-Length'] = String(range.end - range.start + 1);
    return { status: 206, headers, body: { start: range.start, end: range.end + 1 } };
  }
  headers['Content-Length'] = String(length);
  return { status: 200, headers, body: { start: 0, end: length } };
};

/** A stored type that is no plain `type/subtype[; params]` (older rows may hold anything) is sent as bytes. */
const headerSafeType = (type: string): string =>
  /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+(\s*;[\x20-\x7e]*)?$/.test(type) ? type : 'application/octet-stream';
