import { randomBytes } from 'node:crypto';
import { ERRORS } from '@tus/utils';
import type { ErrorRequestHandler } from 'express';
import { AppError, type ErrorCode } from '../common/errors.js';
import type { Logger } from '../common/log.js';
import type { BasicResult, ResultCode } from '../common/result.js';
import { isStorageFull } from '../common/storage-full.js';
import { isUnavailable } from '../common/unavailable.js';
import { errorEnvelope } from '../player/answers/convert.js';
import type { Outcome } from '../player/gateway.service.js';
import { drain } from './drain.js';

/** The one place where error codes become HTTP status codes. */
export const statusOf: Record<ErrorCode, number> = {
  'bad-request': 400,
  unauthenticated: 401,
  'password-required': 401,
  forbidden: 403,
  'password-wrong': 403,
  'not-found': 404,
  conflict: 409,
  'too-large': 413,
  'unsupported-type': 415,
  'range-not-satisfiable': 416,
  'domain-check': 422,
  locked: 423,
  misdirected: 421,
  'upgrade-required': 426,
  'rate-limited': 429,
  'storage-full': 507,
  internal: 500,
  unavailable: 502,
  timeout: 504,
};

/** The status of a gateway command's outcome: the daemon's OK and ACK, else its error code's. */
export const statusOfOutcome = (o: Outcome): number => (o === 'ok' ? 200 : o === 'ack' ? 400 : statusOf[o]);

/** The `code` of an error's answer, unless the error names a more specific reason. */
export const resultCodeOf: Record<ErrorCode, ResultCode> = {
  'bad-request': 'error.bad-request',
  unauthenticated: 'auth.failed',
  'password-required': 'share.password-required',
  forbidden: 'error.forbidden',
  'password-wrong': 'share.password-wrong',
  'not-found': 'error.not-found',
  conflict: 'error.conflict',
  locked: 'error.locked',
  'too-large': 'error.too-large',
  'unsupported-type': 'error.unsupported-type',
  'range-not-satisfiable': 'error.range-not-satisfiable',
  'domain-check': 'error.domain-check',
  'storage-full': 'error.storage-full',
  'rate-limited': 'error.rate-limited',
  'upgrade-required': 'error.upgrade-required',
  misdirected: 'error.misdirected',
  internal: 'error.internal',
  unavailable: 'error.unavailable',
  timeout: 'error.timeout',
};

/** The generic result answering a known error. */
export const errorResult = (e: AppError): BasicResult | BadRequestResult => {
  const result: BasicResult = { success: false, message: e.message, code: e.reason ?? resultCodeOf[e.code] };
  return e.code === 'bad-request' ? { ...result, field: e.field ?? null } : result;
};

/** Malformed input: the generic result naming the field, for clients that say it in their own words. */
export interface BadRequestResult extends BasicResult {
  field: string | null;
}

/** The generic result of an unexpected failure. */
export const internalErrorResult = (message = 'An unexpected error occurred.'): BasicResult => ({ success: false, message, code: 'error.internal' });

/** The music gateway (`/api/v1` except Sharry's `/api/v1/open/...`) answers every error with its own envelope. */
const isGatewayPath = (path: string): boolean => (path.startsWith('/api/v1/') || path === '/api/v1') && !path.startsWith('/api/v1/open/');

interface BodyParserError {
  type?: string;
  status?: number;
  expose?: boolean;
}

/** Client errors raised by express itself or its middleware (static files, path decoding), by status. */
const byStatus: Record<number, AppError> = {
  400: new AppError('bad-request', 'The request could not be read.', { field: 'path' }),
  403: new AppError('forbidden', 'Access denied.'),
  404: new AppError('not-found', 'The requested resource was not found.'),
  413: new AppError('too-large', 'The request is too large.'),
  416: new AppError('range-not-satisfiable', 'The requested range is not satisfiable.'),
};

/** Errors thrown by express' own middleware (body parsing, routing, static files) that are the client's fault. */
const fromBodyParser = (err: unknown): AppError | undefined => {
  const e = err as BodyParserError & { statusCode?: number };
  const status = typeof e?.status === 'number' ? e.status : e?.statusCode;
  if (typeof e?.type !== 'string') {
    // e.g. a path parameter that is not valid percent-encoding (%zz), or a missing static file
    return typeof status === 'number' && status >= 400 && status < 500 ? (byStatus[status] ?? byStatus[400]) : undefined;
  }
  if (typeof e.status !== 'number' || e.status >= 500) return undefined;
  switch (e.type) {
    case 'entity.parse.failed':
      return new AppError('bad-request', 'The request body is not valid JSON.', { field: 'body' });
    case 'entity.too.large':
      return new AppError('too-large', 'The request body is too large.');
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return new AppError('bad-request', 'The request body has an unsupported encoding.', { field: 'body' });
    default:
      return new AppError('bad-request', 'The request could not be read.', { field: 'body' });
  }
};

/** The AppError an error stands for, when it is not an unexpected failure. */
export const toKnownError = (err: unknown): AppError | undefined => {
  if (err instanceof AppError) return err;
  if (err === ERRORS.ERR_LOCK_TIMEOUT) return new AppError('locked', 'The upload is locked by another request.');
  if (isStorageFull(err)) return new AppError('storage-full', 'There is no space left on the server.', { cause: err });
  if (isUnavailable(err)) return new AppError('unavailable', 'A service the server depends on (file store, database) is not reachable. Try again later.', { cause: err });
  return fromBodyParser(err);
};

/** A failure as every answer carries it: JSON, the gateway's envelope, tus text, a refused WebSocket upgrade. */
export interface Failure {
  status: number;
  headers: Record<string, string>;
  /** the text of the answer; never a stack trace */
  message: string;
  /** the known error, when it is one */
  known: AppError | undefined;
}

/**
 * The status, headers and message answering `err`. A known error gets its
 * status and headers (`Retry-After`, `WWW-Authenticate`, the share's room as
 * `Tus-Max-Size`, those the HTTP layer gave it) and is logged when the
 * failure is the server's (5xx); anything else is a 500 with an error id
 * that is also logged, under `what` with `context`.
 */
export const failureOf = (err: unknown, log: Logger, context: Record<string, unknown>, what = 'Unexpected error'): Failure => {
  const known = toKnownError(err);
  if (known) {
    const status = statusOf[known.code];
    const headers = { ...known.headers };
    if (known.code === 'rate-limited' && known.retryAfterSeconds) headers['Retry-After'] = String(known.retryAfterSeconds);
    if (known.code === 'password-required') headers['WWW-Authenticate'] = 'Service realm="share"';
    if (known.room !== undefined) headers['Tus-Max-Size'] = String(known.room);
    if (status >= 500) log.error(known.message, { ...context, code: known.code, cause: known.cause === undefined ? undefined : String(known.cause) });
    return { status, headers, message: known.message, known };
  }
  const errorId = randomBytes(6).toString('hex');
  const body = (err as { body?: unknown } | undefined)?.body;
  log.error(what, { errorId, ...context, error: err instanceof Error ? { message: err.message, stack: err.stack } : String(body ?? err) });
  return { status: 500, headers: {}, message: `An unexpected error occurred (error id ${errorId}).`, known: undefined };
};

/**
 * Express error handler: a failure's status, headers and, as body, a generic
 * result (the gateway's envelope below the gateway's paths).
 */
export const errorHandler = (log: Logger): ErrorRequestHandler => async (err, req, res, next) => {
  // A client still sending its body would see a reset instead of the answer.
  await drain(req);
  if (res.headersSent) {
    log.warn('Error after the response started', { path: req.path, error: String(err) });
    res.destroy();
    return;
  }
  const f = failureOf(err, log, { method: req.method, path: req.path });
  for (const [k, v] of Object.entries(f.headers)) res.setHeader(k, v);
  res.status(f.status).json(isGatewayPath(req.path) ? errorEnvelope(f.message) : f.known ? errorResult(f.known) : internalErrorResult(f.message));
  void next;
};
