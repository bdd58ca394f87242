import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import { forbidden, unauthenticated } from '../common/errors.js';
import type { AuthService } from '../core/auth/auth.service.js';
import type { Links } from './client-origin.js';
import { signedIn } from './connection-limits.js';
import { AUTH_COOKIE, AUTH_HEADER, cookieFromHeader, requestToken } from './request-context.js';

/** `/sec` and `/admin`: a valid token of an active account (401 otherwise). Sets `res.locals.caller`. */
export const requireUser =
  (auth: AuthService): RequestHandler =>
  async (req, res, next) => {
    const claims = await auth.authenticate(requestToken(req));
    if (!claims) throw unauthenticated();
    signedIn(req.socket);
    res.locals['caller'] = claims;
    next();
  };

/** `/admin`: after `requireUser`, the caller must be an admin (403 otherwise). */
export const requireAdmin: RequestHandler = (_req, res, next) => {
  const claims = res.locals['caller'] as { admin?: boolean } | undefined;
  if (!claims?.admin) throw forbidden('This requires an admin account.');
  next();
};

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const single = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

/** True when the request authenticates with the `service_auth` cookie alone (no `Service-Auth` header). */
const cookieOnly = (req: IncomingMessage): boolean => !single(req.headers[AUTH_HEADER]) && !!cookieFromHeader(req.headers.cookie, AUTH_COOKIE);

const originOf = (value: string): string | undefined => {
  try {
    return new URL(value).origin;
  } catch {
    return undefined;
  }
};

/**
 * True when the browser says a page of another origin sent the request:
 * `Sec-Fetch-Site` other than `same-origin` or `none` (typed or bookmarked),
 * or, from browsers that do not send it, an `Origin` other than the
 * request's own (`Host`, or a trusted proxy's forwarded host, with its
 * scheme). Without either header the client is no browser, or the request is
 * a same-origin GET; the approach of Go's `http.CrossOriginProtection`.
 */
const fromOtherOrigin = (req: IncomingMessage, links: Links): boolean => {
  const site = single(req.headers['sec-fetch-site'])?.trim().toLowerCase();
  if (site) return site !== 'same-origin' && site !== 'none';
  const origin = single(req.headers.origin);
  if (!origin) return false;
  const own = links.requestOrigin(req);
  return own === undefined || originOf(origin) !== own;
};

/**
 * A page of another origin must not act with a visitor's session cookie:
 * SameSite=Lax stops other sites, but not another port of the same host, and
 * not WebSockets. True for a request that authenticates with the cookie alone
 * and comes from another origin. A `Service-Auth` header is proof enough: a
 * page cannot send it to another origin without CORS, which Pier never grants.
 */
const crossOriginWithCookie = (req: IncomingMessage, links: Links): boolean => cookieOnly(req) && fromOtherOrigin(req, links);

/** True for an unsafe request (POST, PUT, PATCH, DELETE) that `crossOriginWithCookie` describes. */
const isRefusedCrossOrigin = (req: IncomingMessage, links: Links): boolean =>
  UNSAFE.has(req.method ?? '') && crossOriginWithCookie(req, links);

/**
 * Routes that anyone may call but that sign the browser in or create an
 * account (login, proxy login, sign-up): an unsafe request from another
 * origin is refused whatever it carries, so a form on another site cannot
 * sign a visitor in as someone else (login CSRF). Also the gateway, which
 * with `player.access = open` needs no cookie at all. A `Service-Auth` header
 * still proves the origin; clients that send neither `Sec-Fetch-Site` nor
 * `Origin` (curl, Sharry's clients) are no browser page and pass.
 */
export const refuseCrossSite =
  (links: Links): RequestHandler =>
  (req, _res, next) => {
    if (UNSAFE.has(req.method) && !single(req.headers[AUTH_HEADER]) && fromOtherOrigin(req, links)) {
      throw forbidden('A page of another origin may not send this request.');
    }
    next();
  };

/** True for an upgrade that a page of another origin opened (no `Service-Auth` header, which no page can send to another origin). */
export const crossOriginUpgrade = (req: IncomingMessage, links: Links): boolean => !single(req.headers[AUTH_HEADER]) && fromOtherOrigin(req, links);

/**
 * Every route: an unsafe request that authenticates with the cookie alone
 * and comes from another origin gets 403. Applied to the whole app, not per
 * zone, because the cookie authenticates outside `/sec` and `/admin` too
 * (the player, the `/open/signup/newinvite` aliases), and a request with the
 * cookie but no token header has nothing else that proves its origin.
 */
export const refuseCrossOrigin =
  (links: Links): RequestHandler =>
  (req, _res, next) => {
    if (isRefusedCrossOrigin(req, links)) {
      throw forbidden('A page of another origin may not use the session cookie; send the token in the Service-Auth header.');
    }
    next();
  };
