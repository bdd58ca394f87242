/**
 * Jobs of the checksum queue: a file whose checksum a server is to compute,
 * with that server's lease. A server renews the leases of the jobs it holds;
 * when it dies they run out and any other server takes them over.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../connect.js';

/** MariaDB: as in 0001 (InnoDB, utf8mb4, exact comparison of ids). */
const sqlTableOptions = sql`engine=InnoDB default character set utf8mb4 collate utf8mb4_bin`;

export function checksumJobs(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      let table = db.schema
        .createTable('checksum_jobs')
        .addColumn('file_id', 'varchar(254)', (c) => c.primaryKey())
        .addColumn('owner', 'varchar(254)', (c) => c.notNull())
        .addColumn('expires', 'bigint', (c) => c.notNull());
      if (dialect === 'mysql') table = table.modifyEnd(sqlTableOptions);
      await table.execute();
      await db.schema.createIndex('ix_checksum_jobs_expires').on('checksum_jobs').column('expires').execute();
      await db.schema.createIndex('ix_checksum_jobs_owner').on('checksum_jobs').column('owner').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('checksum_jobs').execute();
    },
  };
}
