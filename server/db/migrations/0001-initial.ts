/**
 * The initial schema (see `../schema.ts`), portable across SQLite, PostgreSQL
 * and MariaDB: ids VARCHAR(254), timestamps and durations BIGINT milliseconds,
 * flags SMALLINT 0/1. Constraint and index names are unique per database
 * because MariaDB requires it for foreign keys.
 */
import { sql, type CreateTableBuilder, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../connect.js';

const ID = 'varchar(254)';

export function initial(dialect: DialectName): Migration {
  const blob = { sqlite: sql`blob`, postgres: sql`bytea`, mysql: sql`longblob` }[dialect];
  // MariaDB's TEXT holds only 64 KiB; the others have no limit.
  const longText = dialect === 'mysql' ? sql`mediumtext` : sql`text`;
  /**
   * MariaDB: InnoDB for foreign keys and transactions; utf8mb4 for all of
   * Unicode; a binary collation so ids (base64url, case-sensitive) and other
   * text compare exactly as on SQLite and PostgreSQL.
   */
  const table = <T extends string>(db: Kysely<unknown>, name: T): CreateTableBuilder<T, never> => {
    const builder = db.schema.createTable(name);
    return dialect === 'mysql'
      ? builder.modifyEnd(sql`engine=InnoDB default character set utf8mb4 collate utf8mb4_bin`)
      : builder;
  };

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await table(db, 'accounts')
        .addColumn('id', ID, (c) => c.primaryKey())
        .addColumn('login', ID, (c) => c.notNull())
        .addColumn('source', ID, (c) => c.notNull())
        .addColumn('state', ID, (c) => c.notNull())
        .addColumn('password', ID, (c) => c.notNull())
        .addColumn('email', ID)
        .addColumn('admin', 'smallint', (c) => c.notNull())
        .addColumn('login_count', 'integer', (c) => c.notNull())
        .addColumn('last_login', 'bigint')
        .addColumn('created', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('uq_accounts_login', ['login'])
        .execute();

      await table(db, 'invitations')
        .addColumn('id', ID, (c) => c.primaryKey())
        .addColumn('created', 'bigint', (c) => c.notNull())
        .execute();

      await table(db, 'aliases')
        .addColumn('id', ID, (c) => c.primaryKey())
        .addColumn('account_id', ID, (c) => c.notNull())
        .addColumn('name', ID, (c) => c.notNull())
        .addColumn('validity', 'bigint', (c) => c.notNull())
        .addColumn('enabled', 'smallint', (c) => c.notNull())
        .addColumn('created', 'bigint', (c) => c.notNull())
        .addForeignKeyConstraint('fk_aliases_account', ['account_id'], 'accounts', ['id'], (fk) =>
          fk.onDelete('cascade'),
        )
        .execute();

      await table(db, 'alias_members')
        .addColumn('id', ID, (c) => c.primaryKey())
        .addColumn('alias_id', ID, (c) => c.notNull())
        .addColumn('account_id', ID, (c) => c.notNull())
        .addForeignKeyConstraint('fk_alias_members_alias', ['alias_id'], 'aliases', ['id'], (fk) =>
          fk.onDelete('cascade'),
        )
        .addForeignKeyConstraint('fk_alias_members_account', ['account_id'], 'accounts', ['id'], (fk) =>
          fk.onDelete('cascade'),
        )
        .addUniqueConstraint('uq_alias_members_alias_account', ['alias_id', 'account_id'])
        .execute();

      await table(db, 'shares')
        .addColumn('id', ID, (c) => c.primaryKey())
        .addColumn('account_id', ID, (c) => c.notNull())
        .addColumn('alias_id', ID)
        .addColumn('name', ID)
        .addColumn('validity', 'bigint', (c) => c.notNull())
        .addColumn('max_views', 'integer', (c) => c.notNull())
        .addColumn('password', ID)
        .addColumn('description', longText)
        .addColumn('created', 'bigint', (c) => c.notNull())
        .addForeignKeyConstraint('fk_shares_account', ['account_id'], 'accounts', ['id'], (fk) =>
          fk.onDelete('cascade'),
        )
        .addForeignKeyConstraint('fk_shares_alias', ['alias_id'], 'aliases', ['id'], (fk) =>
          fk.onDelete('set null'),
        )
        .execute();

      await table(db, 'publish_shares')
        .addColumn('id', ID, (c) => c.primaryKey())
        .addColumn('share_id', ID, (c) => c.notNull())
        .addColumn('enabled', 'smallint', (c) => c.notNull())
        .addColumn('views', 'integer', (c) => c.notNull())
        .addColumn('last_access', 'bigint')
        .addColumn('publish_date', 'bigint', (c) => c.notNull())
        .addColumn('publish_until', 'bigint', (c) => c.notNull())
        .addColumn('created', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('uq_publish_shares_share', ['share_id'])
        .addForeignKeyConstraint('fk_publish_shares_share', ['share_id'], 'shares', ['id'], (fk) =>
          fk.onDelete('cascade'),
        )
        .execute();

      await table(db, 'file_meta')
        .addColumn('file_id', ID, (c) => c.primaryKey())
        .addColumn('mimetype', ID, (c) => c.notNull())
        .addColumn('length', 'bigint', (c) => c.notNull())
        .addColumn('checksum', ID, (c) => c.notNull())
        .addColumn('created', 'bigint', (c) => c.notNull())
        .addColumn('store', ID, (c) => c.notNull())
        .addColumn('location', 'varchar(2000)', (c) => c.notNull())
        .execute();

      await table(db, 'share_files')
        .addColumn('id', ID, (c) => c.primaryKey())
        .addColumn('share_id', ID, (c) => c.notNull())
        .addColumn('file_id', ID, (c) => c.notNull())
        .addColumn('filename', 'varchar(2000)')
        .addColumn('created', 'bigint', (c) => c.notNull())
        .addColumn('real_size', 'bigint', (c) => c.notNull())
        .addForeignKeyConstraint('fk_share_files_share', ['share_id'], 'shares', ['id'], (fk) =>
          fk.onDelete('cascade'),
        )
        .addForeignKeyConstraint('fk_share_files_file', ['file_id'], 'file_meta', ['file_id'], (fk) =>
          fk.onDelete('cascade'),
        )
        .addUniqueConstraint('uq_share_files_share_file', ['share_id', 'file_id'])
        .execute();

      // No foreign key to file_meta: a binary store keeps its chunks on its own.
      await table(db, 'file_chunks')
        .addColumn('file_id', ID, (c) => c.notNull())
        .addColumn('chunk_nr', 'integer', (c) => c.notNull())
        .addColumn('chunk_len', 'integer', (c) => c.notNull())
        .addColumn('chunk_data', blob, (c) => c.notNull())
        .addPrimaryKeyConstraint('pk_file_chunks', ['file_id', 'chunk_nr'])
        .execute();

      await table(db, 'upload_locks')
        .addColumn('id', ID, (c) => c.primaryKey())
        .addColumn('owner', ID, (c) => c.notNull())
        .addColumn('expires', 'bigint', (c) => c.notNull())
        .execute();

      const indexes: [name: string, table: string, column: string][] = [
        ['idx_publish_shares_publish_until', 'publish_shares', 'publish_until'],
        ['idx_publish_shares_publish_date', 'publish_shares', 'publish_date'],
        ['idx_shares_account_id', 'shares', 'account_id'],
        ['idx_shares_alias_id', 'shares', 'alias_id'],
        ['idx_share_files_share_id', 'share_files', 'share_id'],
        // foreign key columns that no other index leads with (PostgreSQL does not index them itself)
        ['idx_share_files_file_id', 'share_files', 'file_id'],
        ['idx_aliases_account_id', 'aliases', 'account_id'],
        ['idx_alias_members_account_id', 'alias_members', 'account_id'],
        ['idx_file_meta_checksum', 'file_meta', 'checksum'],
      ];
      for (const [name, on, column] of indexes) {
        await db.schema.createIndex(name).on(on).column(column).execute();
      }
    },

    async down(db: Kysely<unknown>): Promise<void> {
      for (const name of [
        'upload_locks',
        'file_chunks',
        'share_files',
        'file_meta',
        'publish_shares',
        'shares',
        'alias_members',
        'aliases',
        'invitations',
        'accounts',
      ]) {
        await db.schema.dropTable(name).execute();
      }
    },
  };
}
