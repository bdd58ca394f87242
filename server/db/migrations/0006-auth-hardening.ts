/**
 * What the sign-in and guest limits keep in the database, so that they hold
 * across restarts and several servers sharing one database:
 *
 * - `ended_sessions`: sessions ended by a plain logout, by the session id
 *   their tokens carry, until the session could not last anyway
 *   (`expires`: its login plus `session-max`); the account's other sessions
 *   go on. Gone with the account.
 * - `retired_alias_ids`: the ids of deleted and renamed upload links with the
 *   account that owned them, which alone may use them again: guests who kept
 *   an old link must never reach another account. Kept when that account is
 *   deleted.
 * - `rate_limit_hits`: the attempts rate limits count (logins, share
 *   passwords, sign-ups, and the addresses where a login succeeded), so that
 *   servers sharing the database share their counts; `hit_key` is a hash of what
 *   is counted (never a login or an address in clear), `expires` when the row
 *   is of no more use.
 * - `shares.guest_key`: for a share a guest created, a keyed hash of the
 *   guest's address (an IPv6 address by its /64), so an upload link's hourly
 *   allowance is counted per guest as well; null for users' shares.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../connect.js';

/** MariaDB: as in 0001 (InnoDB, utf8mb4, exact comparison of ids). */
const sqlTableOptions = sql`engine=InnoDB default character set utf8mb4 collate utf8mb4_bin`;

const ID = 'varchar(254)';

export function authHardening(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      let ended = db.schema
        .createTable('ended_sessions')
        .addColumn('id', ID, (c) => c.primaryKey())
        .addColumn('account_id', ID, (c) => c.notNull())
        .addColumn('expires', 'bigint', (c) => c.notNull())
        .addForeignKeyConstraint('fk_ended_sessions_account', ['account_id'], 'accounts', ['id'], (fk) => fk.onDelete('cascade'));
      if (dialect === 'mysql') ended = ended.modifyEnd(sqlTableOptions);
      await ended.execute();
      await db.schema.createIndex('ix_ended_sessions_expires').on('ended_sessions').column('expires').execute();

      let retired = db.schema
        .createTable('retired_alias_ids')
        .addColumn('id', ID, (c) => c.primaryKey())
        .addColumn('account_id', ID, (c) => c.notNull())
        .addColumn('retired', 'bigint', (c) => c.notNull());
      if (dialect === 'mysql') retired = retired.modifyEnd(sqlTableOptions);
      await retired.execute();

      let hits = db.schema
        .createTable('rate_limit_hits')
        .addColumn('id', ID, (c) => c.primaryKey())
        .addColumn('hit_key', 'varchar(64)', (c) => c.notNull())
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addColumn('expires', 'bigint', (c) => c.notNull());
      if (dialect === 'mysql') hits = hits.modifyEnd(sqlTableOptions);
      await hits.execute();
      await db.schema.createIndex('ix_rate_limit_hits_key_at').on('rate_limit_hits').columns(['hit_key', 'at']).execute();
      await db.schema.createIndex('ix_rate_limit_hits_expires').on('rate_limit_hits').column('expires').execute();

      await db.schema.alterTable('shares').addColumn('guest_key', 'varchar(64)').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('shares').dropColumn('guest_key').execute();
      await db.schema.dropTable('rate_limit_hits').execute();
      await db.schema.dropTable('retired_alias_ids').execute();
      await db.schema.dropTable('ended_sessions').execute();
    },
  };
}
