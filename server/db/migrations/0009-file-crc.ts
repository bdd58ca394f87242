/**
 * The CRC-32 of a file's bytes, computed while they arrive with its
 * checksum: a ZIP puts it into the entry's local header without reading the
 * file a first time. Null for files stored before, and for files whose bytes
 * did not all pass through one server in order; a ZIP computes those itself.
 */
import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../connect.js';

export function fileCrc(_dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      // bigint: an unsigned 32-bit value does not fit PostgreSQL's integer
      await db.schema.alterTable('file_meta').addColumn('crc32', 'bigint').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('file_meta').dropColumn('crc32').execute();
    },
  };
}
