/**
 * How much mail signed-in users and guests can make Pier send, counted in the
 * database (`mail.repository.ts`, tables of migration 0004) so that the
 * limits hold across parallel requests, restarts and several servers sharing
 * one database:
 *
 * - an account mails at most `mails-per-account-per-hour` recipients an hour
 *   through `/sec/mail/send` (a mail to three addresses counts three), and at
 *   most `MAX_RECIPIENTS` in one mail;
 * - a guest upload is announced by mail at most once per share, and the
 *   guests of one alias trigger at most `alias-mails-per-hour` announcements
 *   an hour (each one mail to the owner and to each member).
 *
 * A mail is recorded before it is sent, in a transaction that first locks the
 * account or alias row (an UPDATE that changes nothing: a row lock on
 * PostgreSQL and MariaDB, the write lock on SQLite), so parallel requests on
 * any server count one after the other. A mail that reached nobody is given
 * back.
 */
import type { Kysely } from 'kysely';
import { AppError } from '../../common/errors.js';
import { randomId } from '../../common/ids.js';
import type { Database } from '../../db/schema.js';
import { lockAccount } from '../accounts/account.repository.js';
import { lockAlias } from '../aliases/alias.repository.js';
import {
  aliasNotificationsSince,
  deleteGuestNotification,
  deleteMailsUntil,
  deleteSentMail,
  insertGuestNotification,
  insertSentMail,
  mailsSince,
  wasNotified,
} from './mail.repository.js';

type Db = Kysely<Database>;

const HOUR = 60 * 60 * 1000;

/** Recipients of one mail, however large the hourly allowance. */
export const MAX_RECIPIENTS = 50;

/** Seconds until enough of `window` (oldest first) has left the hour to free `needed` recipients. */
const secondsUntilFree = (window: { recipients: number; created: number }[], needed: number, now: number): number => {
  let freed = 0;
  for (const r of window) {
    freed += r.recipients;
    if (freed >= needed) return Math.max(1, Math.ceil((r.created + HOUR - now) / 1000));
  }
  return Math.ceil(HOUR / 1000);
};

/**
 * Records a mail of the account to `recipients` recipients if its last hour
 * leaves room for them under `perHour`, and gives the record's id (for
 * `releaseAccountMail`). Otherwise throws `rate-limited` with the seconds
 * until there is room, and records nothing.
 */
export const reserveAccountMail = async (db: Db, accountId: string, recipients: number, perHour: number, now: number): Promise<string> =>
  db.transaction().execute(async (trx) => {
    await lockAccount(trx, accountId);
    const since = now - HOUR;
    const window = await mailsSince(trx, accountId, since);
    const used = window.reduce((n, r) => n + r.recipients, 0);
    if (used + recipients > perHour) {
      throw new AppError('rate-limited', 'This account has sent too many mails in the last hour. Try again later.', {
        retryAfterSeconds: secondsUntilFree(window, used + recipients - perHour, now),
        reason: 'mail.too-many',
      });
    }
    await deleteMailsUntil(trx, accountId, since);
    const id = randomId();
    await insertSentMail(trx, id, accountId, recipients, now);
    return id;
  });

/** Gives back a mail recorded by `reserveAccountMail` that reached nobody. */
export const releaseAccountMail = async (db: Db, id: string): Promise<void> => {
  await deleteSentMail(db, id);
};

/** Why a guest upload is not announced by mail. */
export type NotificationRefusal = 'already-notified' | 'alias-limit';

/**
 * Records the announcement of the share, a share of the alias, unless it was
 * announced before or the alias' guests already triggered `perHour`
 * announcements in the last hour; then gives the reason and records nothing.
 */
export const reserveGuestNotification = async (
  db: Db,
  aliasId: string,
  shareId: string,
  perHour: number,
  now: number,
): Promise<NotificationRefusal | undefined> =>
  db.transaction().execute(async (trx) => {
    await lockAlias(trx, aliasId);
    if (await wasNotified(trx, shareId)) return 'already-notified';
    if ((await aliasNotificationsSince(trx, aliasId, now - HOUR)) >= perHour) return 'alias-limit';
    await insertGuestNotification(trx, shareId, now);
    return undefined;
  });

/** Gives back an announcement recorded by `reserveGuestNotification` that reached nobody. */
export const releaseGuestNotification = async (db: Db, shareId: string): Promise<void> => {
  await deleteGuestNotification(db, shareId);
};
