/**
 * The tus `Locker` of Pier: a request first takes the in-process lock of
 * `@tus/server` (a newer request for the same upload ends the older one), then
 * the upload's lock in the database, which servers sharing the database
 * respect. The database lock is renewed while held and expires when its
 * server dies.
 */
import { MemoryLocker } from '@tus/server';
import { ERRORS, type Lock, type Locker, type RequestRelease } from '@tus/utils';
import { randomId } from '../../common/ids.js';
import type { UploadLocks } from '../../core/uploads/upload-locks.js';

export interface DatabaseLockerOptions {
  /** how long a lock lives without renewal */
  ttlMs?: number;
  /** how long a request waits for another server's lock */
  acquireTimeoutMs?: number;
  pollMs?: number;
}

export class DatabaseLocker implements Locker {
  private readonly memory = new MemoryLocker();
  /** this process: one owner for all its requests (the in-process lock orders them) */
  private readonly owner = randomId();
  private readonly ttlMs: number;
  private readonly acquireTimeoutMs: number;
  private readonly pollMs: number;

  constructor(
    private readonly locks: UploadLocks,
    options: DatabaseLockerOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 30_000;
    this.acquireTimeoutMs = options.acquireTimeoutMs ?? 30_000;
    this.pollMs = options.pollMs ?? 100;
  }

  newLock(id: string): Lock {
    const local = this.memory.newLock(id);
    let heartbeat: NodeJS.Timeout | undefined;
    return {
      lock: async (signal: AbortSignal, requestRelease: RequestRelease): Promise<void> => {
        await local.lock(signal, requestRelease);
        const deadline = Date.now() + this.acquireTimeoutMs;
        try {
          while (!(await this.locks.tryAcquire(id, this.owner, this.ttlMs))) {
            if (signal.aborted || Date.now() > deadline) throw ERRORS.ERR_LOCK_TIMEOUT;
            await new Promise((r) => setTimeout(r, this.pollMs));
          }
        } catch (e) {
          await local.unlock();
          throw e;
        }
        heartbeat = setInterval(() => {
          void this.locks.renew(id, this.owner, this.ttlMs).catch(() => undefined);
        }, Math.max(1000, Math.floor(this.ttlMs / 3)));
        heartbeat.unref();
      },
      unlock: async (): Promise<void> => {
        if (heartbeat) clearInterval(heartbeat);
        heartbeat = undefined;
        try {
          await this.locks.release(id, this.owner);
        } finally {
          await local.unlock();
        }
      },
    };
  }
}
