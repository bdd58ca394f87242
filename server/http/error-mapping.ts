import { randomBytes } from 'node:crypto';
import type { ErrorRequestHandler } from 'express';
import { AppError, type ErrorCode } from '../common/errors.js';
import type { Logger } from '../common/log.js';
import type { BasicResult, ResultCode } from '../common/result.js';
import { isStorageFull } from '../common/storage-full.js';
import { isUnavailable } from '../common/unavailable.js';
import { errorEnvelope } from '../player/answers/convert.js';
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
  'range-not-satisfiable': 416,
  'domain-check': 422,
  'storage-full': 507,
  'rate-limited': 429,
  internal: 500,
  unavailable: 502,
  timeout: 504,
};

/** The `code` of an error's answer, unless the error names a more specific reason. */
export const resultCodeOf: Record<ErrorCode, ResultCode> = {
  'bad-request': 'error.bad-request',
  unauthenticated: 'auth.failed',
  'password-required': 'share.password-required',
  forbidden: 'error.forbidden',
  'password-wrong': 'share.password-wrong',
  'not-found': 'error.not-found',
  conflict: 'error.conflict',
  'too-large': 'error.too-large',
  'range-not-satisfiable': 'error.range-not-satisfiable',
  'domain-check': 'error.domain-check',
  'storage-full': 'error.storage-full',
  'rate-limited': 'error.rate-limited',
  internal: 'error.internal',
  unavailable: 'error.unavailable',
  timeout: 'error.timeout',
};

/** The generic result answering a known error. */
export const errorResult = (e: AppError): BasicResult => ({ success: false, message: e.message, code: e.reason ?? resultCodeOf[e.code] });

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
  if (isStorageFull(err)) return new AppError('storage-full', 'There is no space left on the server.', { cause: err });
  if (isUnavailable(err)) return new AppError('unavailable', 'A service the server depends on (file store, database) is not reachable. Try again later.', { cause: err });
  return fromBodyParser(err);
};

/**
 * Express error handler: known errors become their status and a generic
 * result; anything else is a 500 with an error id that is also logged. Never
 * a stack trace in a response.
 */
export const errorHandler = (log: Logger): ErrorRequestHandler => async (err, req, res, next) => {
  // A client still sending its body would see a reset instead of the answer.
  await drain(req);
  if (res.headersSent) {
    log.warn('Error after the response started', { path: req.path, error: String(err) });
    res.destroy();
    return;
  }
  const known = toKnownError(err);
  if (known) {
    const status = statusOf[known.code];
    for (const [k, v] of Object.entries(known.headers)) res.setHeader(k, v);
    if (known.code === 'rate-limited' && known.retryAfterSeconds) res.setHeader('Retry-After', String(known.retryAfterSeconds));
    if (known.code === 'password-required') res.setHeader('WWW-Authenticate', 'Service realm="share"');
    if (status >= 500) log.error(known.message, { path: req.path, code: known.code, cause: known.cause === undefined ? undefined : String(known.cause) });
    res.status(status).json(isGatewayPath(req.path) ? errorEnvelope(known.message) : errorResult(known));
    return;
  }
  const errorId = randomBytes(6).toString('hex');
  log.error('Unexpected error', {
    errorId,
    method: req.method,
    path: req.path,
    error: err instanceof Error ? { message: err.message, stack: err.stack } : String(err),
  });
  const message = `An unexpected error occurred (error id ${errorId}).`;
  res.status(500).json(isGatewayPath(req.path) ? errorEnvelope(message) : internalErrorResult(message));
  void next;
};
