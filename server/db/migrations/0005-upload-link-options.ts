/**
 * Upload links get what a guest page needs, and guest shares remember who sent them:
 *
 * - `aliases.message`: plain text shown to guests on the upload page, or null;
 * - `aliases.max_size`: bytes one share uploaded through the link may hold
 *   (below `share.max-size`), or null for the server's limit;
 * - `aliases.expires`: epoch ms after which the link takes no uploads, or null;
 * - `shares.sender`: the name a guest gave, cleaned, or null;
 * - `shares.auto_name`: the name the server composed for a guest share, so it
 *   is renewed while it stands but never replaces a name someone chose.
 *
 * One column per statement: SQLite alters one column at a time.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../connect.js';

const ID = 'varchar(254)';

export function uploadLinkOptions(_dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('aliases').addColumn('message', sql`text`).execute();
      await db.schema.alterTable('aliases').addColumn('max_size', 'bigint').execute();
      await db.schema.alterTable('aliases').addColumn('expires', 'bigint').execute();
      await db.schema.alterTable('shares').addColumn('sender', ID).execute();
      await db.schema.alterTable('shares').addColumn('auto_name', ID).execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('shares').dropColumn('auto_name').execute();
      await db.schema.alterTable('shares').dropColumn('sender').execute();
      await db.schema.alterTable('aliases').dropColumn('expires').execute();
      await db.schema.alterTable('aliases').dropColumn('max_size').execute();
      await db.schema.alterTable('aliases').dropColumn('message').execute();
    },
  };
}
