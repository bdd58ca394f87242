/**
 * The guest zone `/api/v2/alias`: header `Service-Alias: <alias id>` checked
 * once for the whole zone (unknown, disabled or malformed → 401), then the
 * same upload routes as `/sec/upload` with the guest's accessor, and the
 * notification a guest page sends when its upload is done.
 */
import type { RequestHandler, Response } from 'express';
import { unauthenticated } from '../../common/errors.js';
import { isIdent } from '../../common/ids.js';
import type { AliasService, GuestAccessor } from '../../core/aliases/alias.service.js';
import type { ClientOrigin } from '../client-origin.js';
import type { RouteModule } from '../http-deps.js';
import { uploadRoutesFor } from './uploads.routes.js';

export const ALIAS_HEADER = 'service-alias';

/** `/alias`: an enabled alias of an active account in `Service-Alias`. Sets `res.locals.guest`. */
export const requireAlias =
  (aliases: AliasService, origin: ClientOrigin): RequestHandler =>
  async (req, res, next) => {
    const raw = req.headers[ALIAS_HEADER];
    const aliasId = (Array.isArray(raw) ? raw[0] : raw)?.trim();
    const guest = isIdent(aliasId) ? await aliases.guestAccessor(aliasId, origin.clientAddress(req)) : undefined;
    if (!guest) throw unauthenticated();
    res.locals['guest'] = guest;
    next();
  };

/** The guest of an `/alias` request. */
export const guestAccessor = (res: Response): GuestAccessor => {
  const g = res.locals['guest'] as GuestAccessor | undefined;
  if (!g) throw new Error('guestAccessor() used outside the alias zone');
  return g;
};

const uploads = uploadRoutesFor({ prefix: '/api/v2/alias/upload', accessor: (_req, res) => guestAccessor(res) });

export const aliasGuestRoutes: RouteModule = (api, deps) => {
  uploads(api, deps);

  api.route('post', '/api/v2/alias/mail/notify/{shareId}', async (req, res) => {
    const baseUrl = deps.links.baseUrl(req);
    const sender = (req.body as { sender?: string | null } | undefined)?.sender;
    res.json(await deps.guestUploads.notify(guestAccessor(res), String(req.params['shareId']), baseUrl, sender));
  });
};
