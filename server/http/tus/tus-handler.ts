/**
 * tus on `@tus/server`, mounted per upload prefix (`/api/v2/sec/upload`, and
 * by the alias issue `/api/v2/alias/upload`) with an accessor resolver.
 *
 * The express handler first resolves the accessor and checks that the share
 * (and the file) is accessible (404 otherwise, on every tus request). It
 * answers creation (POST) and appending (PATCH) itself, streaming the body
 * into the store; HEAD, OPTIONS and DELETE go to the tus server. Pier's
 * headers map onto tus':
 * `Service-File-Length` → `Upload-Length`; a missing `Tus-Resumable` is
 * taken as 1.0.0 (plain curl clients do not send it); a POST to an
 * upload appends like PATCH (`X-HTTP-Method-Override: PATCH`, or a plain
 * POST); OPTIONS and HEAD announce the share's room as `Tus-Max-Size`. Every
 * failure gets the status and headers of `error-mapping.ts` (`failureOf`),
 * with the message as text body.
 *
 * Every request acts on exactly the share and file of the checked route: the
 * tus server gets its upload id (`uploadKey(shareId, fid)`) from the route's
 * parameters, never from the URL (whose last segment may be in the query),
 * and the data store acts only on a file of that share.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Server, type ServerOptions } from '@tus/server';
import { Metadata } from '@tus/utils';
import type { Request, RequestHandler, Response } from 'express';
import { AppError, badRequest, notFound } from '../../common/errors.js';
import { randomId } from '../../common/ids.js';
import type { Logger } from '../../common/log.js';
import type { Accessor } from '../../core/shares/accessor.js';
import { decodeHeaderName } from '../../core/uploads/file-name.js';
import type { TusUploads } from '../../core/uploads/tus-uploads.js';
import { drain } from '../drain.js';
import { failureOf, toKnownError } from '../error-mapping.js';
import type { DatabaseLocker, WriteLock } from './database-locker.js';
import { PierDataStore, uploadKey } from './pier-datastore.js';

export type AccessorResolver = (req: Request, res: Response) => Accessor | Promise<Accessor>;

interface TusContext {
  /** the share the request passed its access check for */
  shareId: string;
  /** the checked file id of the route, for requests to an upload */
  fileId: string | undefined;
}

type TusRequest = Parameters<NonNullable<ServerOptions['onUploadCreate']>>[0];
interface NodeCtx {
  req: IncomingMessage;
  res: ServerResponse;
}

const nodeOf = (req: TusRequest): NodeCtx => {
  const node = (req as unknown as { runtime?: { node?: NodeCtx } }).runtime?.node;
  if (!node) throw new Error('The tus request carries no Node request.');
  return node;
};

/** Sets a request header for express' view and for the raw headers the tus server reads. */
const setHeader = (req: IncomingMessage, name: string, value: string): void => {
  req.headers[name.toLowerCase()] = value;
  req.rawHeaders.push(name, value);
};

export interface TusMount {
  /** e.g. `/api/v2/sec/upload` */
  prefix: string;
  accessor: AccessorResolver;
  /** the external base URL of a request (no trailing slash) */
  baseUrl: (req: Request) => string;
  uploads: TusUploads;
  /** shared by every mount, so one upload is never written by two requests at once */
  locker: DatabaseLocker;
  log: Logger;
}

/** More bytes than the upload's declared length. */
const beyondLength = (): AppError => new AppError('too-large', 'The body goes beyond the declared upload length.');

/**
 * `bad-request` for a creation that asks for a tus extension Pier does not
 * offer (the tus server would answer 501): the length is known when an
 * upload is created, and uploads are never concatenated.
 */
const refuseUnofferedExtensions = (req: IncomingMessage): void => {
  if (req.headers['upload-defer-length'] !== undefined) {
    throw badRequest('Upload-Defer-Length', 'The upload length must be given at creation (Upload-Length or Service-File-Length); deferring it is not supported.');
  }
  if (req.headers['upload-concat'] !== undefined) throw badRequest('Upload-Concat', 'Concatenating uploads is not supported.');
};

/**
 * The status and text body of a failed tus request, from the one error
 * mapping; the error's headers (`Tus-Max-Size`) are set on `res`. Undefined
 * for the tus server's own refusals (4xx), which it answers itself.
 */
const errorAnswer = (err: unknown, res: ServerResponse, log: Logger, method: string): { status_code: number; body: string } | undefined => {
  const own = (err as { status_code?: unknown }).status_code;
  if (!toKnownError(err) && typeof own === 'number' && own < 500) return undefined;
  const f = failureOf(err, log, { method }, 'Unexpected tus error');
  for (const [k, v] of Object.entries(f.headers)) res.setHeader(k, v);
  return { status_code: f.status, body: `${f.message}\n` };
};

/** A tus answer with a text body (none once the head is sent). */
const answer = (res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void => {
  if (!res.headersSent) res.writeHead(status, { 'Tus-Resumable': '1.0.0', 'Content-Type': 'text/plain; charset=utf-8', ...headers }).end(body);
};

/** Answers a failed tus request that Pier handles itself; an error the mapping leaves to the tus server was the request's. */
const fail = (res: ServerResponse, err: unknown, log: Logger, method: string): void => {
  const failure = errorAnswer(err, res, log, method);
  answer(res, failure?.status_code ?? 400, failure?.body ?? 'The request could not be read.\n');
};

/** A non-negative safe integer written plainly (no sign, exponent or leading zeros). */
const isCount = (v: string | undefined): boolean => {
  const n = Number(v);
  return v !== undefined && Number.isSafeInteger(n) && n >= 0 && String(n) === v;
};

/** `Upload-Metadata` as key/value pairs: empty without the header, undefined when it does not parse. */
const parseMetadata = (raw: string | string[] | undefined): Record<string, string | null> | undefined => {
  if (raw === undefined) return {};
  try {
    return typeof raw === 'string' ? Metadata.parse(raw) : undefined;
  } catch {
    return undefined;
  }
};

/**
 * The headers of a creation the tus protocol defines, each checked as the tus
 * server checks them (the metadata already parsed); the names of the invalid
 * ones, in this order.
 */
const invalidCreationHeaders = (h: IncomingMessage['headers'], metadataValid: boolean): string[] => {
  const value = (name: string): string | undefined => (typeof h[name] === 'string' ? (h[name] as string) : undefined);
  const invalid: string[] = [];
  if (value('tus-resumable') !== '1.0.0') invalid.push('tus-resumable');
  if (value('upload-length') !== undefined && !isCount(value('upload-length'))) invalid.push('upload-length');
  if (value('upload-offset') !== undefined && !isCount(value('upload-offset'))) invalid.push('upload-offset');
  if (!metadataValid) invalid.push('upload-metadata');
  return invalid;
};

/** The file's name and type: Pier's percent-encoded headers, else the tus metadata `filename` and `filetype`. */
const nameAndType = (headers: IncomingMessage['headers'], metadata: Record<string, string | null>): { name: string; type: string } => {
  const rawName = headers['service-file-name'];
  let name = metadata['filename'] ?? '';
  if (typeof rawName === 'string') {
    const decoded = decodeHeaderName(rawName);
    if (decoded === undefined) throw badRequest('Service-File-Name', 'Service-File-Name must be percent-encoded UTF-8.');
    name = decoded;
  }
  const rawType = headers['service-file-type'];
  const type = typeof rawType === 'string' && rawType !== '' ? rawType : (metadata['filetype'] ?? '');
  return { name, type };
};

/** Why a write ended before its body did, when it was not a failure of the server. */
type Interruption = 'stalled' | 'lost' | 'newer request' | 'client gone';

/**
 * The cause of a failed write that is no fault of the server: the locker
 * ended it (its client stalled, or its lock ran out and another server holds
 * the upload), a newer request for the upload in this process ended it, or
 * the client's connection closed or went idle before the body was complete.
 */
const interruption = (req: IncomingMessage, lock?: WriteLock, released = false): Interruption | undefined => {
  const ended = lock?.ended();
  if (ended) return ended;
  if (released) return 'newer request';
  return req.destroyed && !req.complete ? 'client gone' : undefined;
};

const interruptionText: Record<Interruption, string> = {
  stalled: 'Upload write ended: its client stalled (sent nothing for limits.upload-idle-timeout); the bytes so far are kept and another request may go on',
  lost: 'Upload write taken over: its lock ran out and another server continues the upload',
  'newer request': 'Upload write taken over by a newer request for the same upload',
  'client gone': 'Upload write ended: the client closed its connection or it went idle; the bytes so far are kept',
};

const logInterruption = (log: Logger, cut: Interruption, context: Record<string, unknown>): void => {
  if (cut === 'lost') log.warn(interruptionText[cut], context);
  else log.info(interruptionText[cut], context);
};

/**
 * When the client of `req` last sent bytes (ms since the epoch), as far as
 * can be told when asked: bytes arrived on its connection since the previous
 * call, or bytes wait unread (the store is slow, not the client).
 */
const lastReceived = (req: IncomingMessage): (() => number) => {
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

/** The express handler of every tus route of one mount. */
export const createTusHandler = (mount: TusMount): RequestHandler => {
  const contexts = new WeakMap<IncomingMessage, TusContext>();
  const contextOf = (req: TusRequest): TusContext => {
    const ctx = contexts.get(nodeOf(req).req);
    if (!ctx) throw new Error('tus request without context');
    return ctx;
  };

  const { locker } = mount;
  const server = new Server({
    path: mount.prefix,
    datastore: new PierDataStore(mount.uploads),
    // one request per upload at a time, in this process and across servers sharing the database;
    // HEAD only reads the offset from the store and waits for no writer on another server
    locker: (req) => (req.method === 'HEAD' ? locker.reader : locker),
    allowedOrigins: () => false,
    getFileIdFromRequest: (req) => {
      const { shareId, fileId } = contextOf(req);
      return fileId === undefined ? undefined : uploadKey(shareId, fileId);
    },
    onResponseError: (req, err) => errorAnswer(err, nodeOf(req).res, mount.log, req.method),
  });

  /**
   * PATCH, the hot path, is answered here rather than by the tus server: the
   * request body goes straight into the binary store instead of through a
   * web-stream round trip. Same rules: the tus server's lock (a newer request
   * for the upload ends the older one), the content type, `Upload-Offset`
   * equal to the stored offset (409), nothing beyond the declared length (413).
   */
  const patch = async (req: IncomingMessage, res: ServerResponse, shareId: string, fid: string, plainPost: boolean): Promise<void> => {
    const refuse = (e: AppError) => fail(res, e, mount.log, 'PATCH');
    if (!plainPost && req.headers['content-type'] !== 'application/offset+octet-stream') {
      return refuse(new AppError('unsupported-type', 'Content-Type must be application/offset+octet-stream.'));
    }
    const offsetHeader = req.headers['upload-offset'] ?? (plainPost ? '0' : undefined);
    if (typeof offsetHeader !== 'string' || !isCount(offsetHeader)) return refuse(badRequest('Upload-Offset', 'Upload-Offset must be a non-negative integer.'));
    const offset = Number(offsetHeader);
    const stop = new AbortController();
    const key = uploadKey(shareId, fid);
    const lock = locker.newLock(key, lastReceived(req));
    let released = false;
    try {
      await lock.lock(stop.signal, () => {
        released = true;
        req.destroy();
      });
    } catch (e) {
      return fail(res, e, mount.log, 'PATCH');
    }
    // answered once the lock is given up, so that the client's next request finds the upload free
    let reply: () => void;
    try {
      const state = await mount.uploads.state(shareId, fid);
      if (!state) reply = () => refuse(notFound('The upload'));
      else if (state.offset !== offset) reply = () => refuse(new AppError('conflict', `Upload-Offset ${offset} does not match the stored offset ${state.offset}.`));
      else if (offset + Number(req.headers['content-length'] ?? 0) > state.length) reply = () => refuse(beyondLength());
      else {
        const stored = await mount.uploads.write(shareId, fid, offset, req);
        reply = () => res.writeHead(204, { 'Tus-Resumable': '1.0.0', 'Upload-Offset': String(stored) }).end();
      }
    } catch (e) {
      const cut = interruption(req, lock, released);
      if (cut) {
        // the client is gone or another request has the upload: nobody waits for an answer
        logInterruption(mount.log, cut, { upload: key, method: 'PATCH' });
        reply = () => res.destroy();
      } else {
        // Read the rest of the chunk first: a client still sending would see a reset instead of the answer.
        await drain(req);
        reply = () => fail(res, e, mount.log, 'PATCH');
      }
    } finally {
      stop.abort();
      await lock.unlock();
    }
    reply();
  };

  /**
   * POST, creating an upload (with its first bytes when the body is
   * `application/offset+octet-stream`), is answered here as well: the body
   * goes straight into the store. Nobody knows the new upload's id before the
   * answer, so no other request can hold its lock.
   */
  const create = async (req: IncomingMessage, res: ServerResponse, shareId: string, endpoint: string): Promise<void> => {
    refuseUnofferedExtensions(req);
    const serviceLength = req.headers['service-file-length'];
    if (req.headers['upload-length'] === undefined && typeof serviceLength === 'string') setHeader(req, 'Upload-Length', serviceLength.trim());
    const metadata = parseMetadata(req.headers['upload-metadata']);
    const invalid = invalidCreationHeaders(req.headers, metadata !== undefined);
    const refuse = (e: AppError) => fail(res, e, mount.log, 'POST');
    if (invalid.length > 0 || !metadata) return refuse(badRequest(invalid[0] ?? 'upload-metadata', `Invalid ${invalid.join(' ')}`));
    const lengthHeader = req.headers['upload-length'];
    if (typeof lengthHeader !== 'string') return refuse(badRequest('Upload-Length', 'Upload-Length or Upload-Defer-Length header required'));
    const length = Number(lengthHeader);
    const withBytes = req.headers['content-type'] === 'application/offset+octet-stream';
    if (withBytes && Number(req.headers['content-length'] ?? 0) > length) return refuse(beyondLength());
    const fid = randomId();
    try {
      await mount.uploads.create(shareId, { id: fid, length, ...nameAndType(req.headers, metadata) });
      const headers: Record<string, string> = { 'Tus-Resumable': '1.0.0', Location: `${endpoint}/${fid}` };
      if (withBytes) headers['Upload-Offset'] = String(await mount.uploads.write(shareId, fid, 0, req));
      res.writeHead(201, headers).end();
    } catch (e) {
      const cut = interruption(req);
      if (cut) return logInterruption(mount.log, cut, { share: shareId, file: fid, method: 'POST' });
      // Read the rest of the body first: a client still sending would see a reset instead of the answer.
      await drain(req);
      fail(res, e, mount.log, 'POST');
    }
  };

  return async (req, res) => {
    const accessor = await mount.accessor(req, res);
    const shareId = String(req.params['id']);
    const fid = req.params['fid'] === undefined ? undefined : String(req.params['fid']);
    await mount.uploads.requireAccess(accessor, shareId, fid);
    if (!req.headers['tus-resumable']) setHeader(req, 'Tus-Resumable', '1.0.0');
    const override = req.headers['x-http-method-override'];
    if (override !== undefined && !(req.method === 'POST' && fid !== undefined && String(override).toUpperCase() === 'PATCH')) {
      throw badRequest('X-HTTP-Method-Override', 'X-HTTP-Method-Override is understood only as PATCH, on a POST to an upload.');
    }
    // A POST to an upload appends like PATCH: with the override header under PATCH's rules, without it
    // (plain scripts) whatever its content type and from offset 0 when Upload-Offset is missing.
    if ((req.method === 'PATCH' || req.method === 'POST') && fid !== undefined) return patch(req, res, shareId, fid, req.method === 'POST' && override === undefined);
    // the most a new upload may hold now, announced before a client starts
    if (req.method === 'OPTIONS' || req.method === 'HEAD') res.setHeader('Tus-Max-Size', String(await mount.uploads.room(shareId)));
    if (req.method === 'POST') return create(req, res, shareId, `${mount.baseUrl(req)}${mount.prefix}/${shareId}/files/tus`);
    contexts.set(req, { shareId, fileId: fid });
    await server.handle(req, res);
  };
};
