/**
 * The gateway's access rule (`player.access`), applied once to every gateway
 * prefix: `open` lets anyone in, `user` needs a valid token of an active
 * account, `admin` an admin account. Also refuses paths that do not decode.
 */
import type { RequestHandler, Response } from 'express';
import { badRequest, forbidden, notFound, unauthenticated, type AppError } from '../common/errors.js';
import type { PlayerAccess } from '../config/types.js';
import type { AuthService } from '../core/auth/auth.service.js';
import type { TokenClaims } from '../core/auth/token.js';
import type { Envelope } from '../player/answers/convert.js';
import type { Outcome, PlayerCaller } from '../player/gateway.service.js';
import { statusOfOutcome } from './error-mapping.js';
import type { HttpDeps } from './http-deps.js';
import { signedIn } from './connection-limits.js';
import { requestToken } from './request-context.js';

/** The URL prefixes of the gateway. */
export const playerPrefixes = ['/api/v1/player', '/api/v1/playerspecial', '/api/v1/cover', '/api/v1/booklet', '/api/v1/info'];

type Check = { claims?: TokenClaims; refuse?: AppError };

/**
 * Who may use the gateway: `refuse` is `unauthenticated` without a valid
 * token, `forbidden` for a non-admin when `admin`. With `open` nothing is
 * refused; a valid token still gives its claims (an admin stays an admin),
 * any other caller is anonymous, which counts as a user. Every call checks the token and reads
 * the account (`AuthService.authenticate`), so an ended session, a disabled
 * account or a demotion counts from the very next request.
 */
export const playerAccessCheck = async (auth: AuthService, access: PlayerAccess, token: string | undefined): Promise<Check> => {
  if (access === 'open' && !token) return {};
  const claims = await auth.authenticate(token);
  if (access === 'open') return claims ? { claims } : {};
  if (!claims) return { refuse: unauthenticated() };
  return access === 'admin' && !claims.admin ? { refuse: forbidden('The music player needs an admin account.') } : { claims };
};

/** The caller of a gateway route, as the command classes see it: only an admin account is an admin. */
export const playerCaller = (claims: TokenClaims | undefined): PlayerCaller => ({ admin: claims?.admin === true });

/** `playerCaller` of an express request that passed `playerZone`. */
export const routeCaller = (res: Response): PlayerCaller => playerCaller(res.locals['caller'] as TokenClaims | undefined);

export const playerZone =
  (deps: HttpDeps): RequestHandler =>
  async (req, res, next) => {
    if (!deps.config.player.enabled || !deps.player) throw notFound('The music player gateway');
    try {
      decodeURIComponent(req.path);
    } catch {
      throw badRequest('path', 'The path is not valid percent-encoded UTF-8.');
    }
    const { claims, refuse } = await playerAccessCheck(deps.auth, deps.config.player.access, requestToken(req));
    if (refuse) throw refuse;
    if (claims) {
      signedIn(req.socket);
      res.locals['caller'] = claims;
    }
    next();
  };

export const sendEnvelope = (res: Response, outcome: Outcome, body: Envelope): void => {
  res.status(statusOfOutcome(outcome)).json(body);
};

/** The connection id of a route: `default` when the path has none; 404 for an unknown one. */
export const connectionId = (deps: HttpDeps, params: Record<string, string | string[] | undefined>): string => {
  const raw = params['id'];
  const id = typeof raw === 'string' ? raw : 'default';
  if (!deps.player?.gateway.has(id)) throw notFound(`The player connection '${id}'`);
  return id;
};
