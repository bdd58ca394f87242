/**
 * The jobs of the checksum queue in the database, each with the lease of the
 * server that holds it, so that servers sharing the database never lose a
 * job whose server died: its lease runs out and another server takes it
 * over. Plain functions taking `db` first.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

type Db = Kysely<Database>;

/**
 * Gives job `fileId` to `owner` until `expires` when nobody else holds an
 * unexpired lease on it (a new job, its own, one run out); true when `owner`
 * holds it now.
 */
export const claimJob = async (db: Db, fileId: string, owner: string, now: number, expires: number): Promise<boolean> => {
  const taken = await db
    .updateTable('checksum_jobs')
    .set({ owner, expires })
    .where('file_id', '=', fileId)
    .where((eb) => eb.or([eb('owner', '=', owner), eb('expires', '<', now)]))
    .executeTakeFirst();
  if (Number(taken.numUpdatedRows) > 0) return true;
  try {
    await db.insertInto('checksum_jobs').values({ file_id: fileId, owner, expires }).execute();
    return true;
  } catch {
    // the primary key refused it: another server holds the job
    return false;
  }
};

/** Extends every lease `owner` holds. */
export const renewJobs = async (db: Db, owner: string, expires: number): Promise<void> => {
  await db.updateTable('checksum_jobs').set({ expires }).where('owner', '=', owner).execute();
};

/** Removes a job `owner` holds (done, or nothing left to do). */
export const finishJob = async (db: Db, fileId: string, owner: string): Promise<void> => {
  await db.deleteFrom('checksum_jobs').where('file_id', '=', fileId).where('owner', '=', owner).execute();
};

/** Puts off a job `owner` holds until `until`, held by nobody: any server tries it again then. */
export const deferJob = async (db: Db, fileId: string, owner: string, until: number): Promise<void> => {
  await db.updateTable('checksum_jobs').set({ owner: '', expires: until }).where('file_id', '=', fileId).where('owner', '=', owner).execute();
};

/** Ends every lease of `owner` now (at shutdown), so other servers take its jobs over at once. */
export const releaseJobs = async (db: Db, owner: string): Promise<void> => {
  await db.updateTable('checksum_jobs').set({ expires: 0 }).where('owner', '=', owner).execute();
};

/** Up to `limit` jobs whose lease ran out before `now`, longest expired first. */
export const expiredJobs = async (db: Db, now: number, limit: number): Promise<string[]> => {
  const rows = await db.selectFrom('checksum_jobs').select('file_id').where('expires', '<', now).orderBy('expires').limit(limit).execute();
  return rows.map((r) => r.file_id);
};
