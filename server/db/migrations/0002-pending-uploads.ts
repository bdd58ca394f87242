/**
 * Markers of multipart uploads in progress: what a request created (its share,
 * its files) until it answers. A server killed in the middle leaves its
 * markers behind; once they expire, any server removes what they name, so no
 * half-made share or file survives a crash.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../connect.js';

/** MariaDB: as in 0001 (InnoDB, utf8mb4, exact comparison of ids). */
const sqlTableOptions = sql`engine=InnoDB default character set utf8mb4 collate utf8mb4_bin`;

export function pendingUploads(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      let table = db.schema
        .createTable('pending_uploads')
        .addColumn('id', 'varchar(254)', (c) => c.primaryKey())
        .addColumn('request_id', 'varchar(254)', (c) => c.notNull())
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('ref_id', 'varchar(254)', (c) => c.notNull())
        .addColumn('store', 'varchar(254)', (c) => c.notNull())
        .addColumn('location', 'varchar(2000)', (c) => c.notNull())
        .addColumn('expires', 'bigint', (c) => c.notNull());
      if (dialect === 'mysql') table = table.modifyEnd(sqlTableOptions);
      await table.execute();
      await db.schema.createIndex('ix_pending_uploads_expires').on('pending_uploads').column('expires').execute();
      await db.schema.createIndex('ix_pending_uploads_request').on('pending_uploads').column('request_id').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('pending_uploads').execute();
    },
  };
}
