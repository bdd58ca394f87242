import type { Kysely } from 'kysely';
import { AppError, unauthenticated } from '../../common/errors.js';
import type { Clock } from '../../common/clock.js';
import { isIdent, randomId } from '../../common/ids.js';
import type { Logger } from '../../common/log.js';
import type { Database } from '../../db/schema.js';
import {
  findAccountById,
  findAccountByLogin,
  insertAccount,
  recordLogin,
} from '../accounts/account.repository.js';
import type { Account } from '../accounts/account.types.js';
import { loginFailed, type AuthResult } from './auth.types.js';
import type { LoginModule } from './login-modules/login-module.js';
import type { RateLimiter } from './rate-limiter.js';
import type { TokenClaims, TokenService } from './token.js';

export interface AuthService {
  /**
   * Anyone: tries the login modules in order. A failed login is a
   * `success:false` result; too many failures from one client address throw
   * `rate-limited`.
   */
  login(account: string, password: string, client: string): Promise<AuthResult>;
  /** The holder of a token: a fresh token, after re-reading the account (disabled or deleted → 401). */
  renew(claims: TokenClaims): Promise<AuthResult>;
  /**
   * Every secured request: the claims of a valid token whose account still
   * exists and is active, with the admin flag as stored now; `undefined` otherwise.
   */
  authenticate(token: string | undefined): Promise<TokenClaims | undefined>;
  /**
   * Trusted external login (proxy headers, OAuth): creates the account when
   * missing, refuses disabled accounts.
   */
  loginExternal(login: string, source: string, email: string | null): Promise<AuthResult>;
}

export interface AuthServiceDeps {
  db: Kysely<Database>;
  tokens: TokenService;
  modules: LoginModule[];
  limiter: RateLimiter;
  clock: Clock;
  log: Logger;
}

export const createAuthService = (deps: AuthServiceDeps): AuthService => {
  const { db, tokens, clock, log, limiter } = deps;
  const modules = [...deps.modules].sort((a, b) => a.order - b.order);

  const success = async (account: Account): Promise<AuthResult> => {
    await recordLogin(db, account.id, clock.now());
    const { token, validMs } = await tokens.issue({ accountId: account.id, login: account.login, admin: account.admin });
    return { id: account.id, user: account.login, admin: account.admin, success: true, message: 'Login successful', token, validMs };
  };

  /**
   * Finds or creates the account an external module vouched for. An existing
   * account of another source is not taken over (an internal `bob@github`
   * registered by someone else must not receive the GitHub user's login).
   */
  const ensureAccount = async (
    login: string,
    source: string,
    admin: boolean,
    email: string | null,
  ): Promise<Account | undefined> => {
    const existing = await findAccountByLogin(db, login);
    if (existing) {
      if (existing.source === source) return existing;
      log.warn('Login refused: the account belongs to another login source', { login, source, existing: existing.source });
      return undefined;
    }
    try {
      await insertAccount(db, {
        id: randomId(),
        login,
        source,
        state: 'Active',
        passwordHash: '',
        email,
        admin,
        created: clock.now(),
      });
      log.info('Created account on first external login', { login, source });
    } catch (e) {
      // Two first logins at once: the other one created it; use that.
      log.debug('Account insert raced', { login, error: String(e) });
    }
    const created = await findAccountByLogin(db, login);
    if (!created) throw new AppError('internal', `Account ${login} could not be created.`);
    return created;
  };

  return {
    async login(name, password, client) {
      const key = `login:${client}`;
      const wait = limiter.blockedFor(key);
      if (wait > 0) {
        log.warn('Login refused: too many failed attempts', { client });
        throw new AppError('rate-limited', 'Too many failed login attempts. Try again later.', { retryAfterSeconds: wait });
      }
      const login = name.toLowerCase();
      if (isIdent(login)) {
        for (const m of modules) {
          const outcome = await m.check(login, password);
          if (outcome.kind === 'pass') continue;
          if (outcome.kind === 'success') {
            const account = await ensureAccount(outcome.login, outcome.source, outcome.admin, null);
            if (account?.state === 'Active') {
              limiter.reset(key);
              log.debug('Login successful', { login, module: m.name });
              return success(account);
            }
          }
          break;
        }
      }
      limiter.fail(key);
      log.warn(`Authentication attempt failure for username ${login} from ip ${client}`, { login, client });
      return loginFailed();
    },

    async renew(claims) {
      const account = await findAccountById(db, claims.accountId);
      if (!account || account.state !== 'Active') throw unauthenticated();
      const { token, validMs } = await tokens.issue({ accountId: account.id, login: account.login, admin: account.admin });
      return { id: account.id, user: account.login, admin: account.admin, success: true, message: 'Login successful', token, validMs };
    },

    async authenticate(token) {
      if (!token) return undefined;
      const claims = await tokens.verify(token);
      if (!claims) return undefined;
      const account = await findAccountById(db, claims.accountId);
      if (!account || account.state !== 'Active') return undefined;
      return { accountId: account.id, login: account.login, admin: account.admin };
    },

    async loginExternal(name, source, email) {
      const login = name.toLowerCase();
      if (!isIdent(login)) return loginFailed();
      const account = await ensureAccount(login, source, false, email);
      if (!account) return loginFailed();
      if (account.state !== 'Active') {
        log.warn('External login of a disabled account refused', { login, source });
        return loginFailed();
      }
      return success(account);
    },
  };
};
