import type { Kysely } from 'kysely';
import type { Clock } from '../../common/clock.js';
import type { Database } from '../../db/schema.js';
import { randomId } from '../../common/ids.js';

/**
 * Per-upload locks in the database, so that servers sharing one database
 * never write the same upload at once. A lock expires unless its holder
 * renews it, so a crashed server blocks an upload for one lifetime at most.
 */
export interface UploadLocks {
  /** this server's owner token (random per start) */
  readonly owner: string;
  /** Gives up every lock this server holds (at shutdown, so others need not wait for expiry). */
  releaseAll(): Promise<void>;
  /** Takes the lock for `owner` unless another owner holds an unexpired one; true when `owner` holds it now. */
  tryAcquire(uploadId: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Extends the holder's lock; false when it was lost (expired and taken over). */
  renew(uploadId: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Gives the lock up; nothing happens when `owner` does not hold it. */
  release(uploadId: string, owner: string): Promise<void>;
}

export const createUploadLocks = (db: Kysely<Database>, clock: Clock, owner = randomId()): UploadLocks => ({
  owner,
  async releaseAll() {
    await db.deleteFrom('upload_locks').where('owner', '=', owner).execute();
  },
  async tryAcquire(id, owner, ttlMs) {
    const now = clock.now();
    // a read first: a lock another owner holds is refused without a failed insert
    const row = await db.selectFrom('upload_locks').select(['owner', 'expires']).where('id', '=', id).executeTakeFirst();
    if (row) {
      if (row.owner === owner) {
        await db.updateTable('upload_locks').set({ expires: now + ttlMs }).where('id', '=', id).where('owner', '=', owner).execute();
        return true;
      }
      if (Number(row.expires) >= now) return false;
      await db.deleteFrom('upload_locks').where('id', '=', id).where('expires', '<', now).execute();
    }
    try {
      await db.insertInto('upload_locks').values({ id, owner, expires: now + ttlMs }).execute();
      return true;
    } catch {
      // The primary key refused it: another server took the lock in the meantime.
      return false;
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
