import type { Kysely } from 'kysely';
import type { Clock } from '../../common/clock.js';
import { AppError } from '../../common/errors.js';
import { randomId } from '../../common/ids.js';
import type { Logger } from '../../common/log.js';
import { fail, ok, type BasicResult } from '../../common/result.js';
import type { SignupMode } from '../../config/types.js';
import type { Database } from '../../db/schema.js';
import { findAccountByLogin, insertAccount } from '../accounts/account.repository.js';
import { hashPassword, secretEquals } from '../auth/password-hash.js';
import { checkPasswordRule } from '../auth/password-rule.js';
import type { AddressLimiter } from '../auth/rate-limiter.js';
import { consumeInvitation, insertInvitation } from './invitation.repository.js';

export interface InviteResult extends BasicResult {
  key: string | null;
}

export interface SignupService {
  /**
   * Anyone: creates an internal, active, non-admin account — when sign-up is
   * open, or with a valid invitation key in invite mode (the key is used up
   * only when the account is created). A password shorter than
   * `passwordMinLength` is a `success:false` result and uses up nothing.
   * Every attempt from `client` counts against `rate-limit.signups` per hour
   * (each account multiplies every per-account limit); over it, `rate-limited`
   * is thrown and nothing is checked.
   */
  register(req: { login: string; password: string; invite: string | null }, client: string): Promise<BasicResult>;
  /** Admins: a new invitation key, given the configured invite password. */
  newInvite(password: string): Promise<InviteResult>;
}

export const createSignupService = (deps: {
  db: Kysely<Database>;
  clock: Clock;
  log: Logger;
  settings: { mode: SignupMode; inviteTime: number; invitePassword: string };
  passwordMinLength: number;
  /** sign-up attempts per client address and hour */
  limiter: AddressLimiter;
}): SignupService => {
  const { db, clock, log, settings, passwordMinLength } = deps;
  return {
    async register(req, client) {
      if (settings.mode === 'closed') return fail('signup.closed', 'Sorry, registration is closed.');
      const taken = await deps.limiter.take(client);
      if (!taken.allowed) {
        log.warn('Sign-up refused: too many from one address', { client });
        throw new AppError('rate-limited', 'Too many sign-ups from your address. Try again later.', {
          retryAfterSeconds: taken.retryAfterSeconds,
          reason: 'signup.too-many',
        });
      }
      const tooShort = checkPasswordRule(req.password, passwordMinLength);
      if (tooShort) return tooShort;
      const login = req.login.toLowerCase();
      const hash = await hashPassword(req.password);
      const attempt = db.transaction().execute(async (tx) => {
        if (await findAccountByLogin(tx, login)) return fail('account.exists', 'An account with this name already exists.');
        if (settings.mode === 'invite') {
          const valid = !!req.invite && (await consumeInvitation(tx, req.invite, clock.now() - settings.inviteTime));
          if (!valid) return fail('signup.invite-invalid', 'Invalid invitation key.');
        }
        await insertAccount(tx, {
          id: randomId(),
          login,
          source: 'intern',
          state: 'Active',
          passwordHash: hash,
          email: null,
          admin: false,
          created: clock.now(),
        });
        log.info('Account registered', { login });
        return ok('signup.done', 'Signup successful');
      });
      try {
        return await attempt;
      } catch (e) {
        // Two registrations of one name at once: the unique login decides; the key stays unused.
        if (await findAccountByLogin(db, login)) return fail('account.exists', 'An account with this name already exists.');
        throw e;
      }
    },

    async newInvite(password) {
      if (settings.mode !== 'invite') return { ...fail('signup.invites-disabled', 'Signing up is not enabled for invitations.'), key: null };
      if (!settings.invitePassword || !secretEquals(password, settings.invitePassword)) {
        return { ...fail('signup.invite-password-wrong', 'Password is invalid.'), key: null };
      }
      const key = randomId();
      await insertInvitation(db, key, clock.now());
      return { ...ok('signup.invite-created', 'New invitation created.'), key };
    },
  };
};
