/**
 * Session generations: each account carries a counter that its tokens carry
 * too. A password change, an admin's reset, disabling and "sign out
 * everywhere" bump it, so every older token is refused. Read with the account
 * by its primary key on every authenticated request, so no index is needed.
 * Existing accounts start at 0.
 */
import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../connect.js';

export function sessionGeneration(_dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('accounts')
        .addColumn('session_gen', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('accounts').dropColumn('session_gen').execute();
    },
  };
}
