import type { ResultCode } from './result.js';

/**
 * The closed set of error codes Pier knows. Core code throws `AppError` for
 * failures that stop a request (access, missing entities, bad input); business
 * outcomes that the client should show (duplicate login, wrong invite) are
 * returned as values (`BasicResult` with `success: false`) instead.
 *
 * The mapping of codes to HTTP status codes lives in exactly one place:
 * `server/http/error-mapping.ts`.
 */
export const errorCodes = [
  'bad-request', // malformed input: JSON, missing or mistyped field, invalid ident
  'unauthenticated', // missing, invalid or expired token; unknown or disabled alias
  'forbidden', // authenticated but not allowed
  'password-required', // share password missing
  'password-wrong', // share password wrong
  'not-found', // entity missing or not visible to the caller
  'conflict', // tus offset mismatch
  'locked', // another request kept an upload's lock for the whole wait; the client may retry
  'too-large', // share size limit exceeded
  'unsupported-type', // a request body of a type the route does not take (tus PATCH)
  'range-not-satisfiable',
  'domain-check', // database domain check hit
  'storage-full', // the disk or database holding the files has no space left
  'rate-limited',
  'upgrade-required', // a WebSocket URL asked without the upgrade
  'misdirected', // the request names a host that is none of this server's own (DNS rebinding)
  'unavailable', // a dependency (daemon, store) is unreachable
  'timeout', // a dependency did not answer in time
  'internal', // unexpected failure
] as const;

export type ErrorCode = (typeof errorCodes)[number];

export interface AppErrorOptions {
  /** the request field that is wrong, for `bad-request` */
  field?: string;
  /** seconds until the client may retry, for `rate-limited` */
  retryAfterSeconds?: number;
  /** the bytes a share still has room for, for `too-large` */
  room?: number;
  /** extra response headers; only the HTTP layer sets them (e.g. `Content-Range` of a 416) */
  headers?: Record<string, string>;
  /** the answer's `code` when it says more than the error code (default: see `error-mapping.ts`) */
  reason?: ResultCode;
  cause?: unknown;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly field: string | undefined;
  readonly retryAfterSeconds: number | undefined;
  readonly room: number | undefined;
  readonly headers: Record<string, string>;
  readonly reason: ResultCode | undefined;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.field = options.field;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.room = options.room;
    this.headers = options.headers ?? {};
    this.reason = options.reason;
  }
}

export const badRequest = (field: string, message: string): AppError =>
  new AppError('bad-request', message, { field });

export const unauthenticated = (): AppError => new AppError('unauthenticated', 'Authentication failed.');

export const forbidden = (message = 'Access denied.'): AppError => new AppError('forbidden', message);

export const notFound = (what = 'The requested resource'): AppError =>
  new AppError('not-found', `${what} was not found.`);

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;
