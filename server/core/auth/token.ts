import { jwtVerify, SignJWT } from 'jose';
import type { Clock } from '../../common/clock.js';

/** What a session token says about its holder. Clients treat tokens as opaque. */
export interface TokenClaims {
  accountId: string;
  login: string;
  admin: boolean;
  /** the account's session generation when the session began; a bump ends every older session */
  generation: number;
  /** epoch ms of the login that began the session (kept by renewals) */
  loginAt: number;
  /** the session's id, kept by renewals: a logout ends this session only */
  sessionId: string;
}

export interface IssuedToken {
  token: string;
  /** how long the token is valid: `session-valid`, less near the end of `session-max` */
  validMs: number;
}

export interface TokenService {
  /**
   * A token for `claims`, valid for `session-valid` but never beyond
   * `session-max` after `loginAt`; `undefined` when the session is past that.
   */
  issue(claims: TokenClaims): Promise<IssuedToken | undefined>;
  /** The claims of a valid, unexpired token signed with this server's secret; `undefined` otherwise. */
  verify(token: string): Promise<TokenClaims | undefined>;
}

/** Tokens whose signature was checked, kept so a busy client does not pay for the check at every request. */
const MAX_VERIFIED = 10_000;

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/**
 * HS256 JWTs signed with the server secret. Servers sharing the secret accept
 * each other's tokens. Besides the subject (account id), `login` and `admin`,
 * a token carries `gen` (the session generation), `auth_time` (the login,
 * in seconds, as OpenID Connect names it) and `sid` (the session id, as
 * OpenID Connect names it); tokens without `gen` or `auth_time` are refused.
 * A token issued before session ids existed gets one derived from its account
 * and login time, so a logout ends it like any other.
 * A verified token is remembered with its expiry (bounded), so its signature
 * is checked once: what a token says cannot change, and whether its session
 * still holds (generation, account state, admin flag) is not the token's
 * business but the account's, read at every request (AuthService.authenticate).
 */
export const createTokenService = (
  secret: Uint8Array,
  lifetimes: { sessionValidMs: number; sessionMaxMs: number },
  clock: Clock,
): TokenService => {
  const endOf = (loginAtSec: number) => loginAtSec + Math.ceil(lifetimes.sessionMaxMs / 1000);
  const verified = new Map<string, { claims: TokenClaims; untilMs: number }>();
  return {
    async issue(claims) {
      const nowSec = Math.floor(clock.now() / 1000);
      const loginAtSec = Math.floor(claims.loginAt / 1000);
      const end = endOf(loginAtSec);
      const full = nowSec + Math.ceil(lifetimes.sessionValidMs / 1000);
      const exp = Math.min(full, end);
      if (exp <= nowSec) return undefined;
      const token = await new SignJWT({ login: claims.login, admin: claims.admin, gen: claims.generation, auth_time: loginAtSec, sid: claims.sessionId })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(claims.accountId)
        .setIssuedAt(nowSec)
        .setExpirationTime(exp)
        .sign(secret);
      return { token, validMs: exp < full ? Math.min(lifetimes.sessionValidMs, exp * 1000 - clock.now()) : lifetimes.sessionValidMs };
    },
    async verify(token) {
      if (!token || token.length > 4096) return undefined;
      const known = verified.get(token);
      if (known) {
        if (clock.now() < known.untilMs) return known.claims;
        verified.delete(token);
        return undefined;
      }
      try {
        const { payload } = await jwtVerify(token, secret, {
          algorithms: ['HS256'],
          currentDate: new Date(clock.now()),
        });
        const { sub, login, gen, auth_time: loginAtSec } = payload;
        if (typeof sub !== 'string' || typeof login !== 'string' || !isCount(gen) || !isCount(loginAtSec)) return undefined;
        // also when session-max was lowered after the token was issued
        if (clock.now() >= endOf(loginAtSec) * 1000) return undefined;
        const sid = payload['sid'];
        const sessionId = typeof sid === 'string' && sid.length > 0 && sid.length <= 64 ? sid : `${sub}@${loginAtSec}`;
        const claims = { accountId: sub, login, admin: payload['admin'] === true, generation: gen, loginAt: loginAtSec * 1000, sessionId };
        if (verified.size >= MAX_VERIFIED) verified.delete(verified.keys().next().value!);
        verified.set(token, { claims, untilMs: Math.min(endOf(loginAtSec), payload.exp ?? 0) * 1000 });
        return claims;
      } catch {
        return undefined;
      }
    },
  };
};
