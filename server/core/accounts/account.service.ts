import type { Kysely } from 'kysely';
import type { Clock } from '../../common/clock.js';
import { notFound } from '../../common/errors.js';
import { randomId } from '../../common/ids.js';
import type { Logger } from '../../common/log.js';
import { fail, ok, type BasicResult } from '../../common/result.js';
import type { Database } from '../../db/schema.js';
import { hashPassword, verifyPassword } from '../auth/password-hash.js';
import { checkPasswordRule } from '../auth/password-rule.js';
import {
  countAccounts,
  deleteAccount,
  findAccountById,
  findAccountByLogin,
  findAccountDetail,
  findPasswordHash,
  insertAccount,
  searchAccounts,
  updateAccount,
} from './account.repository.js';
import type { AccountDetail, AccountState } from './account.types.js';

export interface AccountCreate {
  login: string;
  state: AccountState;
  admin: boolean;
  password: string;
  email: string | null;
}

export interface AccountModify {
  state: AccountState;
  admin: boolean;
  email: string | null;
  password: string | null;
}

/** Called before an account is deleted, so other features can remove what they store outside the database. */
export type AccountDeletionHook = (accountId: string) => Promise<void>;

export interface AccountService {
  /** Admins: accounts whose login contains `q`, at most `limit`. */
  list(q: string, limit: number): Promise<AccountDetail[]>;
  /** Admins: an internal account with the given password (at least `passwordMinLength` characters, else `success:false`). */
  create(req: AccountCreate): Promise<BasicResult>;
  /** Admins: one account; 404 when it does not exist. */
  get(id: string): Promise<AccountDetail>;
  /**
   * Admins: state, admin flag, e-mail (null removes it) and, for internal
   * accounts, a non-empty password of at least `passwordMinLength`
   * characters (else `success:false`, nothing changed). 404 when missing. An admin cannot disable
   * or demote their own account (nobody would be left to undo it). A new
   * password or the state `Disabled` ends every session of the account.
   */
  modify(actorId: string, id: string, req: AccountModify): Promise<BasicResult>;
  /** Admins: deletes the account with its shares and aliases; 404 when missing; never one's own. */
  remove(actorId: string, id: string): Promise<BasicResult>;
  /** The caller's e-mail. */
  getEmail(accountId: string): Promise<string | null>;
  /** The caller: sets (or with null, removes) the e-mail. */
  setEmail(accountId: string, email: string | null): Promise<BasicResult>;
  /** The caller: whether the account has an internal password that can be changed. */
  hasPassword(accountId: string): Promise<BasicResult>;
  /**
   * The caller: changes the internal password after checking the old one,
   * ending every session of the account. A new password shorter than
   * `passwordMinLength` is `success:false`, nothing changed.
   */
  changePassword(accountId: string, oldPassword: string, newPassword: string): Promise<BasicResult>;
  /** Creates an internal admin account when there is no account yet; returns whether it did. */
  createInitialAdmin(login: string, password: string): Promise<boolean>;
}

export const createAccountService = (deps: {
  db: Kysely<Database>;
  clock: Clock;
  log: Logger;
  beforeDelete?: AccountDeletionHook[];
  passwordMinLength: number;
}): AccountService => {
  const { db, clock, log, passwordMinLength } = deps;
  const hooks = deps.beforeDelete ?? [];

  const mustExist = async (id: string) => {
    const a = await findAccountById(db, id);
    if (!a) throw notFound('The account');
    return a;
  };

  return {
    list: (q, limit) => searchAccounts(db, q, limit),

    async create(req) {
      const login = req.login.toLowerCase();
      const tooShort = checkPasswordRule(req.password, passwordMinLength);
      if (tooShort) return tooShort;
      if (await findAccountByLogin(db, login)) return fail('account.exists', `The account '${login}' already exists.`);
      try {
        await insertAccount(db, {
          id: randomId(),
          login,
          source: 'intern',
          state: req.state,
          passwordHash: await hashPassword(req.password),
          email: req.email,
          admin: req.admin,
          created: clock.now(),
        });
      } catch (e) {
        if (await findAccountByLogin(db, login)) return fail('account.exists', `The account '${login}' already exists.`);
        throw e;
      }
      log.info('Account created', { login });
      return ok('account.created', 'Account successfully created.');
    },

    async get(id) {
      const a = await findAccountDetail(db, id);
      if (!a) throw notFound('The account');
      return a;
    },

    async modify(actorId, id, req) {
      const account = await mustExist(id);
      if (actorId === id && (req.state !== 'Active' || !req.admin)) {
        return fail('account.own-demote', 'You cannot disable or demote your own account.');
      }
      const newPassword = account.source === 'intern' && req.password ? req.password : undefined;
      const tooShort = newPassword === undefined ? undefined : checkPasswordRule(newPassword, passwordMinLength);
      if (tooShort) return tooShort;
      const passwordHash = newPassword === undefined ? undefined : await hashPassword(newPassword);
      // a reset password or a disabled account ends every session of the account
      const endSessions = passwordHash !== undefined || req.state === 'Disabled';
      await updateAccount(db, id, { state: req.state, admin: req.admin, email: req.email, passwordHash, endSessions });
      if (endSessions) log.info('Sessions of the account ended', { id, reason: passwordHash === undefined ? 'disabled' : 'password reset' });
      return ok('account.modified', 'Account successfully modified.');
    },

    async remove(actorId, id) {
      await mustExist(id);
      if (actorId === id) return fail('account.own-delete', 'You cannot delete your own account.');
      for (const hook of hooks) await hook(id);
      await deleteAccount(db, id, clock.now());
      log.info('Account deleted', { id });
      return ok('account.deleted', 'Account deleted.');
    },

    async getEmail(accountId) {
      return (await mustExist(accountId)).email;
    },

    async setEmail(accountId, email) {
      await mustExist(accountId);
      await updateAccount(db, accountId, { email });
      return email === null ? ok('account.email-deleted', 'E-Mail successfully deleted.') : ok('account.email-changed', 'E-Mail successfully changed.');
    },

    async hasPassword(accountId) {
      const a = await mustExist(accountId);
      return a.source === 'intern' ? ok('account.password-available', 'Account available') : fail('account.password-unavailable', 'Account not available');
    },

    async changePassword(accountId, oldPassword, newPassword) {
      const a = await mustExist(accountId);
      if (a.source !== 'intern') return fail('account.not-internal', 'Not an internal account.');
      const tooShort = checkPasswordRule(newPassword, passwordMinLength);
      if (tooShort) return tooShort;
      if (!(await verifyPassword(oldPassword, await findPasswordHash(db, accountId)))) return fail('account.password-wrong', 'Password is wrong.');
      // every session ends with the old password, the caller's too (AuthService.changePassword hands it a new one)
      await updateAccount(db, accountId, { passwordHash: await hashPassword(newPassword), endSessions: true });
      return ok('account.password-changed', 'Password successfully changed.');
    },

    async createInitialAdmin(login, password) {
      if ((await countAccounts(db)) > 0) return false;
      try {
        await insertAccount(db, {
          id: randomId(),
          login: login.toLowerCase(),
          source: 'intern',
          state: 'Active',
          passwordHash: await hashPassword(password),
          email: null,
          admin: true,
          created: clock.now(),
        });
      } catch (e) {
        // Several servers starting at once on a new database: one of them creates it.
        if (await findAccountByLogin(db, login)) return false;
        throw e;
      }
      return true;
    },
  };
};
