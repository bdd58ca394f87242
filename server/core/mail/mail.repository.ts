/**
 * The mail counts: mails accounts sent (`sent_mails`) and guest uploads
 * announced (`guest_notifications`). Plain functions taking `db` (or a
 * transaction) first, so `mail-limits.ts` runs several in one transaction.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

type Db = Kysely<Database>;

/** The account's mails sent after `since`, oldest first. */
export const mailsSince = async (db: Db, accountId: string, since: number): Promise<{ recipients: number; created: number }[]> =>
  (
    await db
      .selectFrom('sent_mails')
      .select(['recipients', 'created'])
      .where('account_id', '=', accountId)
      .where('created', '>', since)
      .orderBy('created')
      .execute()
  ).map((r) => ({ recipients: Number(r.recipients), created: Number(r.created) }));

/** Forgets the account's mails sent at or before `until`. */
export const deleteMailsUntil = async (db: Db, accountId: string, until: number): Promise<void> => {
  await db.deleteFrom('sent_mails').where('account_id', '=', accountId).where('created', '<=', until).execute();
};

export const insertSentMail = async (db: Db, id: string, accountId: string, recipients: number, created: number): Promise<void> => {
  await db.insertInto('sent_mails').values({ id, account_id: accountId, recipients, created }).execute();
};

export const deleteSentMail = async (db: Db, id: string): Promise<void> => {
  await db.deleteFrom('sent_mails').where('id', '=', id).execute();
};

/** Whether the guest upload into the share was announced. */
export const wasNotified = async (db: Db, shareId: string): Promise<boolean> =>
  (await db.selectFrom('guest_notifications').select('share_id').where('share_id', '=', shareId).executeTakeFirst()) !== undefined;

/**
 * How many announcements shares of the alias had after `since`; counted
 * through the shares, so that they stay counted when the alias moves to a new id.
 */
export const aliasNotificationsSince = async (db: Db, aliasId: string, since: number): Promise<number> => {
  const row = await db
    .selectFrom('guest_notifications')
    .innerJoin('shares', 'shares.id', 'guest_notifications.share_id')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
    .where('shares.alias_id', '=', aliasId)
    .where('guest_notifications.created', '>', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
};

export const insertGuestNotification = async (db: Db, shareId: string, created: number): Promise<void> => {
  await db.insertInto('guest_notifications').values({ share_id: shareId, created }).execute();
};

export const deleteGuestNotification = async (db: Db, shareId: string): Promise<void> => {
  await db.deleteFrom('guest_notifications').where('share_id', '=', shareId).execute();
};
