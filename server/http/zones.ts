import type { RequestHandler } from 'express';
import { forbidden, unauthenticated } from '../common/errors.js';
import type { AuthService } from '../core/auth/auth.service.js';
import { requestToken } from './request-context.js';

/** `/sec` and `/admin`: a valid token of an active account (401 otherwise). Sets `res.locals.caller`. */
export const requireUser =
  (auth: AuthService): RequestHandler =>
  async (req, res, next) => {
    const claims = await auth.authenticate(requestToken(req));
    if (!claims) throw unauthenticated();
    res.locals['caller'] = claims;
    next();
  };

/** `/admin`: after `requireUser`, the caller must be an admin (403 otherwise). */
export const requireAdmin: RequestHandler = (_req, res, next) => {
  const claims = res.locals['caller'] as { admin?: boolean } | undefined;
  if (!claims?.admin) throw forbidden('This requires an admin account.');
  next();
};
