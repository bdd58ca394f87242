/**
 * The tus `Locker` of Pier: a request first takes the in-process lock of
 * `@tus/server` (a newer request for the same upload ends the older one), then
 * the upload's lock in the database, which servers sharing the database
 * respect. The database lock is renewed while held and expires (15 s) when
 * its server dies. Taking both waits at most `acquireTimeoutMs` in all; then
 * the request fails with `ERR_LOCK_TIMEOUT`.
 */
import { MemoryLocker } from '@tus/server';
import { ERRORS, type Lock, type Locker, type RequestRelease } from '@tus/utils';
import type { Clock } from '../../common/clock.js';
import type { UploadLocks } from '../../core/uploads/upload-lock.repository.js';

export interface DatabaseLockerOptions {
  /** how long a lock lives without renewal */
  ttlMs?: number;
  /** how long a request waits for the lock, in this process and in the database together */
  acquireTimeoutMs?: number;
  pollMs?: number;
  /** how long the database lock is kept after a request, so the next chunk takes it cheaply */
  lingerMs?: number;
}

export class DatabaseLocker implements Locker {
  private readonly memory: MemoryLocker;
  /** this server: one owner for all its requests (the in-process lock orders them) */
  private get owner(): string {
    return this.locks.owner;
  }
  private readonly ttlMs: number;
  private readonly acquireTimeoutMs: number;
  private readonly pollMs: number;
  /** database locks kept for a moment after a request, for the same client's next chunk */
  private readonly lingering = new Map<string, NodeJS.Timeout>();
  private readonly lingerMs: number;

  constructor(
    private readonly locks: UploadLocks,
    private readonly clock: Clock,
    options: DatabaseLockerOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 15_000;
    this.acquireTimeoutMs = options.acquireTimeoutMs ?? 20_000;
    this.memory = new MemoryLocker({ acquireLockTimeout: this.acquireTimeoutMs });
    this.pollMs = options.pollMs ?? 100;
    this.lingerMs = options.lingerMs ?? 500;
  }

  newLock(id: string): Lock {
    const local = this.memory.newLock(id);
    let heartbeat: NodeJS.Timeout | undefined;
    return {
      lock: async (signal: AbortSignal, requestRelease: RequestRelease): Promise<void> => {
        const deadline = this.clock.now() + this.acquireTimeoutMs;
        await local.lock(signal, requestRelease);
        const pending = this.lingering.get(id);
        if (pending) clearTimeout(pending);
        this.lingering.delete(id);
        try {
          while (!(await this.locks.tryAcquire(id, this.owner, this.ttlMs))) {
            if (signal.aborted || this.clock.now() > deadline) throw ERRORS.ERR_LOCK_TIMEOUT;
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
        // Keep the database lock a moment: a client's next chunk usually follows at once.
        const release = setTimeout(() => {
          if (this.lingering.get(id) !== release) return;
          this.lingering.delete(id);
          void this.locks.release(id, this.owner).catch(() => undefined);
        }, this.lingerMs);
        release.unref();
        this.lingering.set(id, release);
        await local.unlock();
      },
    };
  }
}
