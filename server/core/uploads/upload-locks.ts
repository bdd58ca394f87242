import type { Kysely } from 'kysely';
import type { Clock } from '../../common/clock.js';
import type { Database } from '../../db/schema.js';

/**
 * Per-upload locks in the database, so that servers sharing one database
 * never write the same upload at once. A lock expires unless its holder
 * renews it, so a crashed server blocks an upload for one lifetime at most.
 */
export interface UploadLocks {
  /** Takes the lock for `owner` unless another owner holds an unexpired one; true when `owner` holds it now. */
  tryAcquire(uploadId: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Extends the holder's lock; false when it was lost (expired and taken over). */
  renew(uploadId: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Gives the lock up; nothing happens when `owner` does not hold it. */
  release(uploadId: string, owner: string): Promise<void>;
}

export const createUploadLocks = (db: Kysely<Database>, clock: Clock): UploadLocks => ({
  async tryAcquire(id, owner, ttlMs) {
    const now = clock.now();
    await db.deleteFrom('upload_locks').where('id', '=', id).where('expires', '<', now).execute();
    try {
      await db.insertInto('upload_locks').values({ id, owner, expires: now + ttlMs }).execute();
      return true;
    } catch {
      // The primary key refused it: someone holds the lock (maybe this owner already).
      const row = await db.selectFrom('upload_locks').select('owner').where('id', '=', id).executeTakeFirst();
      return row?.owner === owner;
    }
  },
  async renew(id, owner, ttlMs) {
    const res = await db
      .updateTable('upload_locks')
      .set({ expires: clock.now() + ttlMs })
      .where('id', '=', id)
      .where('owner', '=', owner)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  },
  async release(id, owner) {
    await db.deleteFrom('upload_locks').where('id', '=', id).where('owner', '=', owner).execute();
  },
});
