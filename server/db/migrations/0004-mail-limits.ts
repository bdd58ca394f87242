/**
 * What the mail limits count, kept in the database so that they hold across
 * parallel requests, restarts and several servers sharing one database:
 *
 * - `sent_mails`: the mails an account sent through `/sec/mail/send`, with
 *   their number of recipients; rows older than the hour are pruned as new
 *   ones come.
 * - `guest_notifications`: the shares whose guest upload was announced by
 *   mail (at most once each); gone with their share. The alias is found
 *   through the share, so a notification stays counted when its alias moves
 *   to a new id.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../connect.js';

/** MariaDB: as in 0001 (InnoDB, utf8mb4, exact comparison of ids). */
const sqlTableOptions = sql`engine=InnoDB default character set utf8mb4 collate utf8mb4_bin`;

const ID = 'varchar(254)';

export function mailLimits(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      let sent = db.schema
        .createTable('sent_mails')
        .addColumn('id', ID, (c) => c.primaryKey())
        .addColumn('account_id', ID, (c) => c.notNull())
        .addColumn('recipients', 'integer', (c) => c.notNull())
        .addColumn('created', 'bigint', (c) => c.notNull())
        .addForeignKeyConstraint('fk_sent_mails_account', ['account_id'], 'accounts', ['id'], (fk) => fk.onDelete('cascade'));
      if (dialect === 'mysql') sent = sent.modifyEnd(sqlTableOptions);
      await sent.execute();
      await db.schema.createIndex('ix_sent_mails_account_created').on('sent_mails').columns(['account_id', 'created']).execute();

      let notified = db.schema
        .createTable('guest_notifications')
        .addColumn('share_id', ID, (c) => c.primaryKey())
        .addColumn('created', 'bigint', (c) => c.notNull())
        .addForeignKeyConstraint('fk_guest_notifications_share', ['share_id'], 'shares', ['id'], (fk) => fk.onDelete('cascade'));
      if (dialect === 'mysql') notified = notified.modifyEnd(sqlTableOptions);
      await notified.execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('guest_notifications').execute();
      await db.schema.dropTable('sent_mails').execute();
    },
  };
}
