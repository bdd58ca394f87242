/**
 * The gateway's access rule (`player.access`), applied once to every gateway
 * prefix: `open` lets anyone in, `user` needs a valid token of an active
 * account, `admin` an admin account. Also refuses paths that do not decode.
 */
import type { RequestHandler, Response } from 'express';
import { badRequest, forbidden, notFound, unauthenticated } from '../../common/errors.js';
import type { PlayerAccess } from '../../config/types.js';
import type { AuthService } from '../../core/auth/auth.service.js';
import type { TokenClaims } from '../../core/auth/token.js';
import type { Envelope } from '../../player/answers/convert.js';
import type { Outcome, PlayerCaller } from '../../player/gateway.service.js';
import { statusOf } from '../error-mapping.js';
import type { HttpDeps } from '../http-deps.js';
import { requestToken } from '../request-context.js';

/** The URL prefixes of the gateway. */
export const playerPrefixes = ['/api/v1/player', '/api/v1/playerspecial', '/api/v1/cover', '/api/v1/booklet', '/api/v1/info'];

/** How long a checked token is trusted without asking again (a disabled account loses access after at most this). */
const TRUST_MS = 2000;
const MAX_TRUSTED = 1000;

type Check = (token: string | undefined) => Promise<{ claims?: TokenClaims; refuse?: 401 | 403 }>;
const checks = new WeakMap<AuthService, Check>();

/**
 * Who may use the gateway: `refuse` is 401 without a valid token, 403 for a
 * non-admin when `admin`. With `open` nothing is refused; a valid token
 * still gives its claims (an admin stays an admin), any other caller is
 * anonymous, which counts as a user. A granted token is trusted for two
 * seconds per server (the player's command route is hot: a client polling
 * status must not cost a token check and an account read per request).
 */
export const playerAccessCheck = (auth: AuthService, access: PlayerAccess, token: string | undefined): ReturnType<Check> => {
  if (access === 'open' && !token) return Promise.resolve({});
  let check = checks.get(auth);
  if (!check) {
    const trusted = new Map<string, { claims: TokenClaims; until: number }>();
    check = async (t) => {
      const now = Date.now();
      const hit = t ? trusted.get(t) : undefined;
      let claims = hit && hit.until > now ? hit.claims : undefined;
      if (!claims) {
        claims = await auth.authenticate(t);
        if (claims && t) {
          if (trusted.size >= MAX_TRUSTED) trusted.clear();
          trusted.set(t, { claims, until: now + TRUST_MS });
        }
      }
      if (!claims) return { refuse: 401 };
      return { claims };
    };
    checks.set(auth, check);
  }
  if (access === 'open') return check(token).then((r) => (r.claims ? { claims: r.claims } : {}));
  return check(token).then((r) => (r.claims && access === 'admin' && !r.claims.admin ? { refuse: 403 } : r));
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
    if (refuse === 401) throw unauthenticated();
    if (refuse === 403) throw forbidden('The music player needs an admin account.');
    if (claims) res.locals['caller'] = claims;
    next();
  };

/** HTTP status of a gateway outcome; failures use the one mapping of error codes. */
export const statusOfOutcome = (o: Outcome): number => (o === 'ok' ? 200 : o === 'ack' ? 400 : statusOf[o]);

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
