import { jwtVerify, SignJWT } from 'jose';
import type { Clock } from '../../common/clock.js';

/** What a session token says about its holder. Clients treat tokens as opaque. */
export interface TokenClaims {
  accountId: string;
  login: string;
  admin: boolean;
}

export interface IssuedToken {
  token: string;
  validMs: number;
}

export interface TokenService {
  issue(claims: TokenClaims): Promise<IssuedToken>;
  /** The claims of a valid, unexpired token signed with this server's secret; `undefined` otherwise. */
  verify(token: string): Promise<TokenClaims | undefined>;
}

/**
 * HS256 JWTs signed with the server secret. Servers sharing the secret accept
 * each other's tokens.
 */
export const createTokenService = (secret: Uint8Array, sessionValidMs: number, clock: Clock): TokenService => ({
  async issue(claims) {
    const nowSec = Math.floor(clock.now() / 1000);
    const token = await new SignJWT({ login: claims.login, admin: claims.admin })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.accountId)
      .setIssuedAt(nowSec)
      .setExpirationTime(nowSec + Math.ceil(sessionValidMs / 1000))
      .sign(secret);
    return { token, validMs: sessionValidMs };
  },
  async verify(token) {
    if (!token || token.length > 4096) return undefined;
    try {
      const { payload } = await jwtVerify(token, secret, {
        algorithms: ['HS256'],
        currentDate: new Date(clock.now()),
      });
      if (typeof payload.sub !== 'string' || typeof payload['login'] !== 'string') return undefined;
      return { accountId: payload.sub, login: payload['login'], admin: payload['admin'] === true };
    } catch {
      return undefined;
    }
  },
});
