/**
 * tus on `@tus/server`, mounted per upload prefix (`/api/v2/sec/upload`,
 * `/api/v2/alias/upload`) with an accessor resolver. The tus server answers
 * every tus request (OPTIONS, POST, HEAD, PATCH, DELETE) through its public
 * API: `handleWeb` with a web request this adapter builds from the Node one,
 * `PierDataStore` for the bytes, Pier's rules in its hooks and options:
 *
 * - the id of every request is the checked route's share and file
 *   (`getFileIdFromRequest`), never a part of its URL; new ids come from
 *   `namingFunction`, the absolute `Location` from `generateUrl`;
 * - access (404 for a share or file the caller may not use) in
 *   `onIncomingRequest`, and in `maxSize` for OPTIONS, which announces the
 *   share's room as `Tus-Max-Size` (HEAD too);
 * - name and type (`Service-File-*` headers or `Upload-Metadata`) and the
 *   body's size at creation in `onUploadCreate`; the quota when the data
 *   store creates the upload, before a byte is stored;
 * - one writer per upload, in this process and across servers sharing the
 *   database, through `locker`;
 * - every refusal through `onResponseError` and the one error mapping
 *   (`failureOf`): status, headers and the message as text body.
 *
 * The adapter maps Sharry's headers onto tus' (`Service-File-Length` →
 * `Upload-Length`; a missing `Tus-Resumable` is taken as 1.0.0, as plain curl
 * clients send none) and a POST to an upload onto PATCH: with
 * `X-HTTP-Method-Override: PATCH` under PATCH's rules, without it (Sharry's
 * plain POST append) whatever its content type and from offset 0 when
 * `Upload-Offset` is missing.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Server } from '@tus/server';
import { ERRORS, type Lock, type Locker, type Upload } from '@tus/utils';
import type { Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from 'express';
import { AppError, badRequest, notFound } from '../../common/errors.js';
import { randomId } from '../../common/ids.js';
import type { Logger } from '../../common/log.js';
import type { Accessor } from '../../core/shares/accessor.js';
import { decodeHeaderName } from '../../core/uploads/file-name.js';
import type { TusUploads } from '../../core/uploads/tus-uploads.js';
import { drain } from '../drain.js';
import { failureOf } from '../error-mapping.js';
import type { DatabaseLocker, LockEnd } from './database-locker.js';
import { bodyOf, lastReceived } from './node-body.js';
import { partsOf, PierDataStore, uploadKey } from './pier-datastore.js';

export type AccessorResolver = (req: ExpressRequest, res: ExpressResponse) => Accessor | Promise<Accessor>;

export interface TusMount {
  /** e.g. `/api/v2/sec/upload` */
  prefix: string;
  accessor: AccessorResolver;
  /** the external base URL of a request (no trailing slash) */
  baseUrl: (req: ExpressRequest) => string;
  uploads: TusUploads;
  /** shared by every mount, so one upload is never written by two requests at once */
  locker: DatabaseLocker;
  log: Logger;
}

/** Why a write ended before its body did, when it was not a failure of the server. */
type Interruption = LockEnd | 'newer request' | 'client gone';

const interruptionText: Record<Interruption, string> = {
  stalled: 'Upload write ended: its client stalled (sent nothing for limits.upload-idle-timeout); the bytes so far are kept and another request may go on',
  lost: 'Upload write taken over: its lock ran out and another server continues the upload',
  'newer request': 'Upload write taken over by a newer request for the same upload',
  'client gone': 'Upload write ended: the client closed its connection or it went idle; the bytes so far are kept',
};

/** What the hooks know of a request: the checked route and the Node request behind the web one. */
interface TusContext {
  node: IncomingMessage;
  accessor: Accessor;
  shareId: string;
  /** the checked file id of the route, for requests to an upload */
  fileId: string | undefined;
  baseUrl: string;
  /** the access check, once per request */
  access?: Promise<void>;
  /** the share's room, when a hook read it */
  room?: number;
  /** headers of a refusal (`Tus-Max-Size`) */
  headers: Record<string, string>;
  /** a PATCH: its body goes into the store */
  writes: boolean;
  /** set when the locker ended the request's write */
  cut?: Interruption;
}

const OFFSET_STREAM = 'application/offset+octet-stream';
/** How long a request asked to give up its lock may go on before the tus server aborts it. */
const LOCK_DRAIN_MS = 100;

/** Why the request's write ended before its body did, when it was no failure of the server. */
const interruptionOf = (c: TusContext): Interruption | undefined => c.cut ?? (c.node.destroyed && !c.node.complete ? 'client gone' : undefined);

/** The library's refusals as Pier's errors, so that one mapping words them all. */
const pierErrorOf = (err: unknown): unknown => {
  switch (err) {
    case ERRORS.FILE_NOT_FOUND:
      return notFound('The upload');
    case ERRORS.MISSING_OFFSET:
      return badRequest('Upload-Offset', 'Upload-Offset must be a non-negative integer.');
    case ERRORS.INVALID_OFFSET:
      return new AppError('conflict', 'Upload-Offset does not match the stored offset.');
    case ERRORS.ERR_SIZE_EXCEEDED:
    case ERRORS.ERR_MAX_SIZE_EXCEEDED:
      return new AppError('too-large', 'The body goes beyond the declared upload length.');
    case ERRORS.INVALID_LENGTH:
      return badRequest('Upload-Length', 'Upload-Length or Service-File-Length header required.');
    case ERRORS.INVALID_METADATA:
      return badRequest('Upload-Metadata', 'Upload-Metadata must be comma-separated pairs of a key and a base64 value.');
    case ERRORS.UNSUPPORTED_CREATION_DEFER_LENGTH_EXTENSION:
      return badRequest('Upload-Defer-Length', 'The upload length must be given at creation (Upload-Length or Service-File-Length); deferring it is not supported.');
    case ERRORS.UNSUPPORTED_CONCATENATION_EXTENSION:
      return badRequest('Upload-Concat', 'Concatenating uploads is not supported.');
    default:
      return err;
  }
};

/** A text answer of the tus protocol, unless the head is already sent. */
const answer = (res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void => {
  if (!res.headersSent) res.writeHead(status, { 'Tus-Resumable': '1.0.0', 'Content-Type': 'text/plain; charset=utf-8', ...headers }).end(body);
};

/** The file's name and type: Pier's percent-encoded headers, else the tus metadata `filename` and `filetype`. */
const nameAndType = (headers: Headers, metadata: Record<string, string | null> | undefined): { filename: string; filetype: string } => {
  const rawName = headers.get('service-file-name');
  let filename = metadata?.['filename'] ?? '';
  if (rawName !== null) {
    const decoded = decodeHeaderName(rawName);
    if (decoded === undefined) throw badRequest('Service-File-Name', 'Service-File-Name must be percent-encoded UTF-8.');
    filename = decoded;
  }
  const rawType = headers.get('service-file-type');
  const filetype = rawType !== null && rawType !== '' ? rawType : (metadata?.['filetype'] ?? '');
  return { filename, filetype };
};

/**
 * The method and headers the tus server is to see, or the refusal of an
 * override other than PATCH on a POST to an upload, or of a PATCH body that
 * is not `application/offset+octet-stream` (415; the tus server would say 400).
 */
const tusView = (req: IncomingMessage, fileId: string | undefined): { method: string; headers: Headers } | AppError => {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name === 'x-http-method-override') continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  if (!headers.has('tus-resumable')) headers.set('tus-resumable', '1.0.0');
  const override = req.headers['x-http-method-override'];
  if (override !== undefined && !(req.method === 'POST' && fileId !== undefined && String(override).toUpperCase() === 'PATCH')) {
    return badRequest('X-HTTP-Method-Override', 'X-HTTP-Method-Override is understood only as PATCH, on a POST to an upload.');
  }
  let method = req.method ?? 'GET';
  if (method === 'POST' && fileId !== undefined) {
    method = 'PATCH';
    if (override === undefined) {
      headers.set('content-type', OFFSET_STREAM);
      if (!headers.has('upload-offset')) headers.set('upload-offset', '0');
    }
  }
  if (method === 'PATCH' && headers.get('content-type') !== OFFSET_STREAM) {
    return new AppError('unsupported-type', 'Content-Type must be application/offset+octet-stream.');
  }
  if (method === 'POST' && !headers.has('upload-length')) {
    const serviceLength = headers.get('service-file-length');
    if (serviceLength !== null) headers.set('upload-length', serviceLength.trim());
  }
  return { method, headers };
};

/** The express handler of every tus route of one mount. */
export const createTusHandler = (mount: TusMount): RequestHandler => {
  const contexts = new WeakMap<Request, TusContext>();
  const contextOf = (req: Request): TusContext => {
    const c = contexts.get(req);
    if (!c) throw new Error('A tus request without its context.');
    return c;
  };
  const checked = (c: TusContext): Promise<void> => (c.access ??= mount.uploads.requireAccess(c.accessor, c.shareId, c.fileId));
  const roomOf = async (c: TusContext): Promise<number> => (c.room = await mount.uploads.room(c.shareId));

  /**
   * The writer's lock ends its request when the locker asks it to give the
   * upload up (a newer request, a stalled client, a lock that ran out): its
   * body stops at once and the bytes so far are kept.
   */
  const writerLocker = (c: TusContext): Locker => ({
    newLock: (id: string): Lock => {
      const lock = mount.locker.newLock(id, lastReceived(c.node));
      return {
        lock: (signal, requestRelease) =>
          lock.lock(signal, () => {
            if (c.writes) {
              c.cut ??= lock.ended() ?? 'newer request';
              c.node.destroy();
            }
            return requestRelease();
          }),
        unlock: () => lock.unlock(),
      };
    },
  });

  const server = new Server({
    path: mount.prefix,
    datastore: new PierDataStore(mount.uploads),
    allowedOrigins: () => false,
    lockDrainTimeout: LOCK_DRAIN_MS,
    getFileIdFromRequest: (req) => {
      const { shareId, fileId } = contextOf(req);
      return fileId === undefined ? undefined : uploadKey(shareId, fileId);
    },
    namingFunction: (req) => uploadKey(contextOf(req).shareId, randomId()),
    generateUrl: (req, { path, id }) => {
      const c = contextOf(req);
      return `${c.baseUrl}${path}/${c.shareId}/files/tus/${partsOf(id).fileId}`;
    },
    // OPTIONS announces the room; creation is held to it when the upload is reserved
    maxSize: async (req, id) => {
      if (id !== null) return 0;
      const c = contextOf(req);
      await checked(c);
      return roomOf(c);
    },
    onIncomingRequest: async (req) => {
      const c = contextOf(req);
      await checked(c);
      if (req.method === 'HEAD') await roomOf(c);
    },
    onUploadCreate: async (req, upload: Upload) => {
      const length = Number(req.headers.get('content-length') ?? 0);
      if (req.headers.get('content-type') === OFFSET_STREAM && length > (upload.size ?? 0)) {
        throw new AppError('too-large', 'The body goes beyond the declared upload length.');
      }
      return { metadata: { ...upload.metadata, ...nameAndType(req.headers, upload.metadata) } };
    },
    // HEAD only reads the offset and creation makes an id nobody knows yet: the in-process lock is enough
    locker: (req) => {
      const c = contextOf(req);
      return req.method === 'PATCH' || req.method === 'DELETE' ? writerLocker(c) : mount.locker.reader;
    },
    onResponseError: (req, err) => {
      const c = contextOf(req);
      // the write was ended by the locker or the client: nobody waits for this answer, and the adapter logs why
      if (interruptionOf(c)) return { status_code: 400, body: 'Request aborted\n' };
      const f = failureOf(pierErrorOf(err), mount.log, { method: req.method, share: c.shareId, file: c.fileId }, 'Unexpected tus error');
      Object.assign(c.headers, f.headers);
      return { status_code: f.status, body: `${f.message}\n` };
    },
  });

  /**
   * Hands the request to the tus server and writes its answer; drops the
   * connection of a write that the locker or the client ended.
   */
  const handle = async (c: TusContext, res: ServerResponse, method: string, headers: Headers): Promise<void> => {
    const body = method === 'POST' || method === 'PATCH' ? bodyOf(c.node) : undefined;
    const url = `http://tus.invalid${mount.prefix}/${c.shareId}/files/tus${c.fileId === undefined ? '' : `/${c.fileId}`}`;
    const request = new Request(url, { method, headers, ...(body ? { body: body.stream, duplex: 'half' } : {}) } as RequestInit);
    contexts.set(request, c);
    let response: Response;
    try {
      response = await server.handleWeb(request);
    } finally {
      body?.release();
    }
    const cut = interruptionOf(c);
    if (cut) {
      const context = { upload: c.fileId ?? c.shareId, method: c.node.method };
      if (cut === 'lost') mount.log.warn(interruptionText[cut], context);
      else mount.log.info(interruptionText[cut], context);
      res.destroy();
      return;
    }
    // Read the rest of the body first: a client still sending would see a reset instead of the answer.
    await drain(c.node);
    const out: Record<string, string> = { ...Object.fromEntries(response.headers), ...c.headers };
    if (c.room !== undefined && (method === 'OPTIONS' || method === 'HEAD')) out['tus-max-size'] = String(c.room);
    res.writeHead(response.status, out);
    res.end(method === 'HEAD' ? undefined : Buffer.from(await response.arrayBuffer()));
  };

  return async (req, res) => {
    // a client that goes away mid-body is an interruption, not an error event nobody listens to
    req.on('error', () => undefined);
    const shareId = String(req.params['id']);
    const fileId = req.params['fid'] === undefined ? undefined : String(req.params['fid']);
    try {
      const accessor = await mount.accessor(req, res);
      const view = tusView(req, fileId);
      if (view instanceof AppError) throw view;
      await handle({ node: req, accessor, shareId, fileId, baseUrl: mount.baseUrl(req), headers: {}, writes: view.method === 'PATCH' }, res, view.method, view.headers);
    } catch (e) {
      await drain(req);
      const f = failureOf(e, mount.log, { method: req.method, share: shareId }, 'Unexpected tus error');
      answer(res, f.status, `${f.message}\n`, f.headers);
    }
  };
};
