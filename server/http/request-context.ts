import type { IncomingMessage } from 'node:http';
import type { Response } from 'express';
import type { TokenClaims } from '../core/auth/token.js';
import type { Accessor } from '../core/shares/accessor.js';

export const AUTH_HEADER = 'service-auth';
export const AUTH_COOKIE = 'service_auth';

/** A cookie's value from the `Cookie` header. */
export const cookieFromHeader = (header: string | undefined, name: string): string | undefined => {
  for (const part of (header ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) {
      try {
        return decodeURIComponent(part.slice(i + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
};

/**
 * The token of a request: header `Service-Auth` first, else cookie
 * `service_auth`. Takes plain Node requests too (WebSocket upgrades).
 */
export const requestToken = (req: IncomingMessage): string | undefined => {
  const header = req.headers[AUTH_HEADER];
  const value = Array.isArray(header) ? header[0] : header;
  return value || cookieFromHeader(req.headers.cookie, AUTH_COOKIE) || undefined;
};

/** The authenticated caller, set by the zone middleware of `/sec` and `/admin`. */
export const caller = (res: Response): TokenClaims => {
  const c = res.locals['caller'] as TokenClaims | undefined;
  if (!c) throw new Error('caller() used on a route without authentication');
  return c;
};

/** Query values validated (and coerced) against the OpenAPI file. */
export const query = (res: Response): Record<string, unknown> => (res.locals['query'] as Record<string, unknown>) ?? {};

export const setAuthCookie = (res: Response, token: string, validMs: number, secure: boolean): void => {
  res.cookie(AUTH_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure,
    maxAge: validMs,
  });
};

export const clearAuthCookie = (res: Response, secure: boolean): void => {
  res.clearCookie(AUTH_COOKIE, { httpOnly: true, sameSite: 'lax', path: '/', secure });
};

/** The accessor of a `/sec` request: the signed-in user. */
export const userAccessor = (res: Response): Accessor => {
  const c = caller(res);
  return { kind: 'user', accountId: c.accountId, login: c.login, admin: c.admin };
};
