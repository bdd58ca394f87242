import type { Kysely } from 'kysely';
import { AppError, unauthenticated } from '../../common/errors.js';
import type { Clock } from '../../common/clock.js';
import { isIdent, randomId } from '../../common/ids.js';
import type { Logger } from '../../common/log.js';
import type { Database } from '../../db/schema.js';
import type { BasicResult } from '../../common/result.js';
import {
  endOneSession,
  endSessions,
  findAccountByLogin,
  findSessionAccount,
  insertAccount,
  recordLogin,
  updateAccount,
} from '../accounts/account.repository.js';
import type { Account } from '../accounts/account.types.js';
import { loginFailed, type AuthResult } from './auth.types.js';
import type { LoginModule } from './login-modules/login-module.js';
import { verifyNothing } from './password-hash.js';
import type { RateLimiter } from './rate-limiter.js';
import type { TokenClaims, TokenService } from './token.js';

export interface AuthService {
  /**
   * Anyone: tries the login modules in order. A failed login is a
   * `success:false` result. The attempt is counted before it is checked, per
   * client address and per login (`RateLimiter.attempt`); over the limit it
   * throws `rate-limited` without checking anything. An unknown login costs
   * the time of a wrong password.
   */
  login(account: string, password: string, client: string): Promise<AuthResult>;
  /**
   * The holder of a token: a fresh token of the same session, after
   * re-reading the account. A disabled or deleted account, an ended session
   * (older generation) or a session older than `session-max` → 401.
   */
  renew(claims: TokenClaims): Promise<AuthResult>;
  /**
   * Every secured request: the claims of a valid token whose account still
   * exists, is active and has the token's session generation, with login and
   * admin flag as stored now; `undefined` otherwise. One read of the account
   * by primary key, so a session ended on any server sharing the database is
   * refused by every server at its next request.
   */
  authenticate(token: string | undefined): Promise<TokenClaims | undefined>;
  /**
   * Trusted external login (proxy headers, OAuth): creates the account when
   * missing, refuses disabled accounts.
   */
  loginExternal(login: string, source: string, email: string | null): Promise<AuthResult>;
  /** The signed-in user: ends every session of the account, on every server; 401 when it no longer exists. */
  endAllSessions(accountId: string): Promise<void>;
  /**
   * The holder of a token (plain logout): ends that session, renewed tokens
   * of it included, on every server; the account's other sessions go on.
   */
  logout(claims: TokenClaims): Promise<void>;
  /**
   * The holder of a token: changes the account's internal password
   * (`AccountService.changePassword`), which ends every session of the
   * account, and answers with the token of a new session for the caller, so
   * the client that made the change stays signed in. A refused change ends
   * nothing and carries no token.
   */
  changePassword(claims: TokenClaims, oldPassword: string, newPassword: string): Promise<BasicResult & { token: string | null; validMs: number }>;
  /**
   * The process hosting the server (the desktop app, which holds the server
   * secret anyway): a token of a new session for the account, with its current
   * generation. Every request checks it like any other token, so a missing or
   * disabled account gets 401 when it is used.
   */
  hostToken(account: { id: string; login: string }): Promise<string>;
}

export interface AuthServiceDeps {
  db: Kysely<Database>;
  tokens: TokenService;
  /** `backend.auth.session-max`: how long an ended session is remembered */
  sessionMaxMs: number;
  /** the password change of the accounts service */
  changePassword(accountId: string, oldPassword: string, newPassword: string): Promise<BasicResult>;
  modules: LoginModule[];
  limiter: RateLimiter;
  clock: Clock;
  log: Logger;
}

export const createAuthService = (deps: AuthServiceDeps): AuthService => {
  const { db, tokens, clock, log, limiter } = deps;
  const modules = [...deps.modules].sort((a, b) => a.order - b.order);

  /** A result with a token for `claims`; 401 when the session is past `session-max`. */
  const issue = async (claims: TokenClaims, message = 'Login successful'): Promise<AuthResult> => {
    const issued = await tokens.issue(claims);
    if (!issued) throw unauthenticated();
    return { id: claims.accountId, user: claims.login, admin: claims.admin, success: true, message, code: 'auth.ok', token: issued.token, validMs: issued.validMs };
  };

  const success = async (account: Account): Promise<AuthResult> => {
    const current = await findSessionAccount(db, account.id);
    if (!current?.active) return loginFailed();
    await recordLogin(db, account.id, clock.now());
    return issue({ accountId: current.id, login: current.login, admin: current.admin, generation: current.generation, loginAt: clock.now(), sessionId: randomId() });
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
    ownsLogin = false,
  ): Promise<Account | undefined> => {
    const existing = await findAccountByLogin(db, login);
    if (existing) {
      if (existing.source === source) return existing;
      if (ownsLogin && existing.source === 'intern') {
        // its own password stops working and its sessions end, like a password change
        await updateAccount(db, existing.id, { source, admin, endSessions: true });
        log.warn(`The configured fixed login '${login}' takes over the internal account of that name; its own password no longer works`, {
          login,
          source,
        });
        return findAccountByLogin(db, login);
      }
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

  /** The account a module vouched for, when it may log in; undefined when no module decided. */
  const check = async (login: string, password: string): Promise<{ decided: boolean; account?: Account }> => {
    for (const m of modules) {
      const outcome = await m.check(login, password);
      if (outcome.kind === 'pass') continue;
      if (outcome.kind === 'fail') return { decided: true };
      const account = await ensureAccount(outcome.login, outcome.source, outcome.admin, null, outcome.ownsLogin);
      log.debug('Login module accepted the credentials', { login, module: m.name });
      return { decided: true, ...(account?.state === 'Active' ? { account } : {}) };
    }
    return { decided: false };
  };

  const current = async (claims: TokenClaims) => {
    const account = await findSessionAccount(db, claims.accountId, claims.sessionId);
    return account?.active && !account.ended && account.generation === claims.generation ? account : undefined;
  };

  return {
    async login(name, password, client) {
      const login = name.toLowerCase();
      const attempt = await limiter.attempt(client, login);
      if (!attempt.allowed) {
        log.warn('Login refused: too many failed attempts', { login, client });
        throw new AppError('rate-limited', 'Too many failed login attempts. Try again later.', {
          retryAfterSeconds: attempt.retryAfterSeconds,
          reason: 'auth.too-many-attempts',
        });
      }
      const outcome = isIdent(login) ? await check(login, password) : { decided: false };
      if (outcome.account) {
        await attempt.succeeded();
        return success(outcome.account);
      }
      // nobody checked a password: spend the time of one, so this answer looks like a wrong password
      if (!outcome.decided) await verifyNothing(password);
      log.warn(`Authentication attempt failure for username ${login} from ip ${client}`, { login, client });
      return loginFailed();
    },

    async renew(claims) {
      const account = await current(claims);
      if (!account) throw unauthenticated();
      return issue({ ...claims, login: account.login, admin: account.admin });
    },

    async authenticate(token) {
      if (!token) return undefined;
      const claims = await tokens.verify(token);
      if (!claims) return undefined;
      const account = await current(claims);
      return account && { ...claims, login: account.login, admin: account.admin };
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

    async hostToken({ id, login }) {
      const account = await findSessionAccount(db, id);
      const claims = { accountId: id, login: account?.login ?? login, admin: account?.admin ?? false };
      const issued = await tokens.issue({ ...claims, generation: account?.generation ?? 0, loginAt: clock.now(), sessionId: randomId() });
      if (!issued) throw new AppError('internal', 'session-max is shorter than a second');
      return issued.token;
    },

    async logout(claims) {
      await endOneSession(db, claims.accountId, claims.sessionId, claims.loginAt + deps.sessionMaxMs, clock.now());
      log.info('Logged out', { accountId: claims.accountId });
    },

    async changePassword(claims, oldPassword, newPassword) {
      const result = await deps.changePassword(claims.accountId, oldPassword, newPassword);
      if (!result.success) return { ...result, token: null, validMs: 0 };
      const account = await findSessionAccount(db, claims.accountId);
      if (!account?.active) throw unauthenticated();
      // a new session: the old password's sessions, the caller's included, ended with the change
      const fresh = await tokens.issue({ accountId: account.id, login: account.login, admin: account.admin, generation: account.generation, loginAt: clock.now(), sessionId: randomId() });
      if (!fresh) throw new AppError('internal', 'session-max is shorter than a second');
      return { ...result, token: fresh.token, validMs: fresh.validMs };
    },

    async endAllSessions(accountId) {
      if (!(await endSessions(db, accountId))) throw unauthenticated();
      log.info('Signed out everywhere', { accountId });
    },
  };
};
