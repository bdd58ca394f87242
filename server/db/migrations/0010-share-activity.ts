/**
 * What happened to each share, for its owner (the receipts):
 *
 * - `share_activity`: one row per view, file download, ZIP and guest upload
 *   (who by recipient number, how many bytes, whether every byte went out);
 *   gone with its share. Beyond the configured number per share the oldest
 *   rows are folded into the share's summary columns below.
 * - `shares.notify_on_download`: 1 when the owner asked for a mail on download;
 * - `shares.activity_recipients`: recipients numbered so far;
 * - `shares.activity_downloaded`: epoch ms of the first complete download, or null;
 * - `shares.activity_mailed`: epoch ms of the last download mail, or null;
 * - `shares.activity_folded*`: the entries folded out of the log: how many,
 *   how many of them were complete downloads, and the time of the newest.
 *
 * One column per statement: SQLite alters one column at a time.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../connect.js';

/** MariaDB: as in 0001 (InnoDB, utf8mb4, exact comparison of ids). */
const sqlTableOptions = sql`engine=InnoDB default character set utf8mb4 collate utf8mb4_bin`;

const ID = 'varchar(254)';

export function shareActivity(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      let table = db.schema
        .createTable('share_activity')
        .addColumn('id', ID, (c) => c.primaryKey())
        .addColumn('share_id', ID, (c) => c.notNull())
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('recipient', 'integer')
        .addColumn('file_id', ID)
        .addColumn('bytes', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('complete', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('client', 'varchar(120)', (c) => c.notNull().defaultTo(''))
        .addColumn('address', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('sender', ID)
        .addForeignKeyConstraint('fk_share_activity_share', ['share_id'], 'shares', ['id'], (fk) => fk.onDelete('cascade'));
      if (dialect === 'mysql') table = table.modifyEnd(sqlTableOptions);
      await table.execute();
      await db.schema.createIndex('ix_share_activity_share_at').on('share_activity').columns(['share_id', 'at']).execute();

      await db.schema.alterTable('shares').addColumn('notify_on_download', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('shares').addColumn('activity_recipients', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('shares').addColumn('activity_downloaded', 'bigint').execute();
      await db.schema.alterTable('shares').addColumn('activity_mailed', 'bigint').execute();
      await db.schema.alterTable('shares').addColumn('activity_folded', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('shares').addColumn('activity_folded_downloads', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('shares').addColumn('activity_folded_until', 'bigint').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const c of [
        'activity_folded_until',
        'activity_folded_downloads',
        'activity_folded',
        'activity_mailed',
        'activity_downloaded',
        'activity_recipients',
        'notify_on_download',
      ]) {
        await db.schema.alterTable('shares').dropColumn(c).execute();
      }
      await db.schema.dropTable('share_activity').execute();
    },
  };
}
