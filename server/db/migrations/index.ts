/**
 * The schema migrations, as a static import map so that they work from a
 * bundle (no directory scanning). Add a migration by adding a file
 * `NNNN-name.ts` exporting a `(dialect) => Migration` factory and one entry
 * below; names sort in the order they run and must never change once released.
 *
 * Concurrent start-ups: Kysely's Migrator holds a lock while it migrates
 * (PostgreSQL `pg_advisory_lock`, MariaDB `GET_LOCK`), so a second process
 * waits and then finds nothing to do. Kysely takes no lock on SQLite; there the
 * whole run happens inside one `BEGIN IMMEDIATE` transaction, which both
 * serialises processes sharing the file and makes a failed run leave nothing
 * behind. (PostgreSQL runs each migration in a transaction too; MariaDB cannot
 * roll back DDL.)
 */
import { Migrator, sql, type Kysely, type Migration, type MigrationResultSet } from 'kysely';
import { silentLogger, type Logger } from '../../common/log.js';
import type { DialectName } from '../connect.js';
import { initial } from './0001-initial.js';
import { pendingUploads } from './0002-pending-uploads.js';
import { sessionGeneration } from './0003-session-generation.js';
import { mailLimits } from './0004-mail-limits.js';
import { uploadLinkOptions } from './0005-upload-link-options.js';
import { authHardening } from './0006-auth-hardening.js';
import { checksumJobs } from './0007-checksum-jobs.js';
import { rooms } from './0008-rooms.js';
import { fileCrc } from './0009-file-crc.js';
import { shareActivity } from './0010-share-activity.js';

export type MigrationFactory = (dialect: DialectName) => Migration;

export const migrations: Readonly<Record<string, MigrationFactory>> = Object.freeze({
  '0001-initial': initial,
  '0002-pending-uploads': pendingUploads,
  '0003-session-generation': sessionGeneration,
  '0004-mail-limits': mailLimits,
  '0005-upload-link-options': uploadLinkOptions,
  '0006-auth-hardening': authHardening,
  '0007-checksum-jobs': checksumJobs,
  '0008-rooms': rooms,
  '0009-file-crc': fileCrc,
  '0010-share-activity': shareActivity,
});

export interface MigratableDb {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the migrator works on any schema
  db: Kysely<any>;
  dialect: DialectName;
}

/**
 * Brings the schema up to date. Returns the names of the migrations applied
 * by this call (empty when it was already current). Throws an Error naming the
 * failed migration when one fails. Call it at start-up, before anything else
 * uses `db` (on SQLite it holds the one connection in a transaction meanwhile).
 */
export async function migrateToLatest(target: MigratableDb, logger: Logger = silentLogger): Promise<string[]> {
  const { db, dialect } = target;
  const log = logger.child('migrations');
  const migrator = new Migrator({
    db,
    provider: {
      getMigrations: () =>
        Promise.resolve(Object.fromEntries(Object.entries(migrations).map(([name, make]) => [name, make(dialect)]))),
    },
  });

  const outcome = dialect === 'sqlite' ? await inOneSqliteTransaction(db, migrator) : await migrator.migrateToLatest();
  const results = outcome.results ?? [];
  const failed = results.find((r) => r.status === 'Error');
  if (outcome.error !== undefined) {
    const reason = outcome.error instanceof Error ? outcome.error.message : String(outcome.error);
    const where = failed ? `migration ${failed.migrationName}` : 'preparing the migrations';
    log.error('Database migration failed', { migration: failed?.migrationName, error: reason });
    throw new Error(`Database migration failed (${dialect}) in ${where}: ${reason}`, { cause: outcome.error });
  }
  const applied = results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
  for (const name of applied) log.info('Applied database migration', { migration: name });
  if (applied.length === 0) log.debug('Database schema is up to date');
  return applied;
}

/**
 * better-sqlite3 behind Kysely has a single connection, so every statement the
 * migrator issues runs inside this transaction. `begin immediate` takes the
 * write lock at once, waiting up to the busy timeout for another process.
 */
async function inOneSqliteTransaction(db: Kysely<unknown>, migrator: Migrator): Promise<MigrationResultSet> {
  try {
    await sql`begin immediate`.execute(db);
  } catch (error) {
    return { error, results: undefined };
  }
  let outcome: MigrationResultSet;
  try {
    outcome = await migrator.migrateToLatest();
  } catch (error) {
    outcome = { error, results: undefined };
  }
  try {
    await sql.raw(outcome.error === undefined ? 'commit' : 'rollback').execute(db);
  } catch (error) {
    return outcome.error === undefined ? { error, results: undefined } : outcome;
  }
  return outcome;
}
