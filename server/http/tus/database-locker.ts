/**
 * The tus `Locker` of Pier: a request first takes the in-process lock of
 * `@tus/server` (a newer request for the same upload ends the older one), then
 * the upload's lock in the database, which servers sharing the database
 * respect. Taking both waits at most `acquireTimeoutMs` in all; then the
 * request fails with `ERR_LOCK_TIMEOUT`.
 *
 * The database lock lives `idleMs` (`limits.upload-idle-timeout`) past its
 * last renewal and is renewed only while the writer's client sends: a writer
 * whose client sent nothing for `idleMs` is ended (its bytes so far are kept)
 * and frees the upload, so the client can go on at once through another
 * server; a server that dies frees its uploads after the same time. The lock
 * is given up when the request ends, so the next chunk of the client finds
 * it free on whichever server it lands.
 */
import { MemoryLocker } from '@tus/server';
import { ERRORS, type Lock, type Locker, type RequestRelease } from '@tus/utils';
import type { Clock } from '../../common/clock.js';
import type { UploadLocks } from '../../core/uploads/upload-lock.repository.js';

export interface DatabaseLockerOptions {
  /** how long a writer's client may send nothing before the writer is ended and its lock runs out */
  idleMs?: number;
  /** how long a request waits for the lock, in this process and in the database together */
  acquireTimeoutMs?: number;
  pollMs?: number;
}

/** Why a lock holder's request was ended by the locker rather than by its own course. */
export type LockEnd = 'stalled' | 'lost';

/** A lock of the upload's writer, which knows why the locker ended its request. */
export interface WriteLock extends Lock {
  /** `stalled`: its client sent nothing for the idle time; `lost`: its lock ran out and another request took it */
  ended(): LockEnd | undefined;
}

export class DatabaseLocker implements Locker {
  private readonly memory: MemoryLocker;
  /** this server: one owner for all its requests (the in-process lock orders them) */
  private get owner(): string {
    return this.locks.owner;
  }
  private readonly idleMs: number;
  private readonly acquireTimeoutMs: number;
  private readonly pollMs: number;

  constructor(
    private readonly locks: UploadLocks,
    private readonly clock: Clock,
    options: DatabaseLockerOptions = {},
  ) {
    this.idleMs = options.idleMs ?? 15_000;
    this.acquireTimeoutMs = options.acquireTimeoutMs ?? 20_000;
    this.memory = new MemoryLocker({ acquireLockTimeout: this.acquireTimeoutMs });
    this.pollMs = options.pollMs ?? 100;
  }

  /**
   * For requests that only read the offset (HEAD): the in-process lock alone,
   * so that an interrupted write in this process has stored what it received
   * before the offset is read; no database lock, so a writer on another
   * server holds nobody up (a client resuming at an offset that moved
   * meanwhile gets 409 and asks again).
   */
  get reader(): Locker {
    return this.memory;
  }

  /**
   * The lock of upload `id`. `lastActive` (a writer's: when its client last
   * sent bytes, in ms since the epoch) makes the lock end a stalled writer;
   * without it the holder counts as active while its request runs (DELETE).
   */
  newLock(id: string, lastActive?: () => number): WriteLock {
    const local = this.memory.newLock(id);
    let heartbeat: NodeJS.Timeout | undefined;
    let end: LockEnd | undefined;
    const stop = (): void => {
      if (heartbeat) clearInterval(heartbeat);
      heartbeat = undefined;
    };
    return {
      ended: () => end,
      lock: async (signal: AbortSignal, requestRelease: RequestRelease): Promise<void> => {
        const deadline = this.clock.now() + this.acquireTimeoutMs;
        await local.lock(signal, requestRelease);
        try {
          while (!(await this.locks.tryAcquire(id, this.owner, this.idleMs))) {
            if (signal.aborted || this.clock.now() > deadline) throw ERRORS.ERR_LOCK_TIMEOUT;
            await new Promise((r) => setTimeout(r, this.pollMs));
          }
        } catch (e) {
          await local.unlock();
          throw e;
        }
        const since = Date.now();
        const finish = (why: LockEnd): void => {
          end ??= why;
          stop();
          void Promise.resolve(requestRelease()).catch(() => undefined);
        };
        // renewed a few times per lifetime, so a renewal that comes late still finds the lock
        heartbeat = setInterval(() => {
          if (Date.now() - Math.max(since, lastActive?.() ?? Date.now()) >= this.idleMs) return finish('stalled');
          this.locks.renew(id, this.owner, this.idleMs).then(
            (held) => {
              if (!held && heartbeat) finish('lost');
            },
            () => undefined,
          );
        }, Math.max(10, Math.floor(this.idleMs / 4)));
        heartbeat.unref();
      },
      unlock: async (): Promise<void> => {
        stop();
        try {
          await this.locks.release(id, this.owner).catch(() => undefined);
        } finally {
          await local.unlock();
        }
      },
    };
  }
}
