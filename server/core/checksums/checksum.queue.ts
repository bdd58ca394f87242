/**
 * The background queue of `compute-checksum`: SHA-256 of complete files whose
 * checksum could not be computed while their bytes streamed in (a tus upload
 * resumed in another process, a restart in the middle of an upload).
 *
 * - every job is a row of `checksum_jobs` with the lease of the server that
 *   holds it, taken before the file completes and renewed while the job
 *   waits or runs; a server that dies leaves leases that run out after
 *   `lease`, and every server looks for such jobs every half lease and takes
 *   them over. A job is removed when it is done; one that failed is put off
 *   and tried again later by any server;
 * - `capacity` bounds the jobs a server holds in memory: `enqueue` waits
 *   while it is full (back-pressure on the uploads that complete);
 * - `parallel` workers read binaries through their store;
 * - the result is written only into a row whose checksum is still `''`, so a
 *   duplicate computation (another process, a restart) writes the same value
 *   and never replaces a checksum with `''`;
 * - at start-up the complete files with an empty checksum are found in the
 *   database and queued again (unless another server holds them).
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { randomId } from '../../common/ids.js';
import type { Logger } from '../../common/log.js';
import type { Database } from '../../db/schema.js';
import type { StoreRegistry } from '../stores/binary-store.js';
import { checksumTarget, pendingChecksums, writeChecksum } from '../uploads/file.repository.js';
import { claimJob, deferJob, expiredJobs, finishJob, releaseJobs, renewJobs } from './checksum-job.repository.js';

export interface ChecksumSettings {
  enable: boolean;
  capacity: number;
  parallel: number;
  /** ms a job's lease lasts without renewal (default 30 s) */
  lease?: number;
}

export interface ChecksumQueue {
  /**
   * Takes the lease of the job of binary `fileId` before its file completes,
   * so that a server that dies in between leaves a job another server takes
   * over. `enqueue` follows once the file is complete; `drop` when completing
   * failed.
   */
  claim(fileId: string): Promise<void>;
  /** Gives up a job claimed for a file that did not complete. */
  drop(fileId: string): Promise<void>;
  /**
   * Queues the binary `fileId` (ignored when disabled, stopped, already
   * queued or held by another server). Resolves once it is in the queue:
   * waits while the queue is full.
   */
  enqueue(fileId: string): Promise<void>;
  /** Starts the workers and the start-up scan of pending files. */
  start(): void;
  /** Stops taking work, ends running reads, waits for the workers and hands its jobs to other servers. */
  stop(): Promise<void>;
}

export interface ChecksumQueueDeps {
  db: Kysely<Database>;
  stores: StoreRegistry;
  settings: ChecksumSettings;
  log: Logger;
}

const SCAN_PAGE = 200;
/** How long a job that failed (store not enabled or not reachable, binary too short) is put off. */
const RETRY_MS = 10 * 60_000;

/** Creates the queue; nothing runs until `start()`. */
export const createChecksumQueue = ({ db, stores, settings, log }: ChecksumQueueDeps): ChecksumQueue => {
  const capacity = Math.max(1, settings.capacity);
  const parallel = Math.max(1, settings.parallel);
  const lease = Math.max(1, settings.lease ?? 30_000);
  /** this server's token on its leases (random per start) */
  const owner = randomId();
  const queue: string[] = [];
  const known = new Set<string>();
  const spaceWaiters: (() => void)[] = [];
  const idleWorkers: (() => void)[] = [];
  let running = false;
  let stopping = false;
  const abort = new AbortController();
  const workers: Promise<void>[] = [];
  const timers: NodeJS.Timeout[] = [];
  const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));
  const claimed = (fileId: string): Promise<boolean> => {
    const now = Date.now();
    return claimJob(db, fileId, owner, now, now + lease);
  };

  const wakeSpace = (): void => {
    while (spaceWaiters.length > 0 && (queue.length < capacity || stopping)) spaceWaiters.shift()!();
  };

  const enqueue = async (fileId: string): Promise<void> => {
    if (!settings.enable || stopping || known.has(fileId)) return;
    known.add(fileId);
    try {
      if (!(await claimed(fileId))) return void known.delete(fileId);
    } catch (e) {
      known.delete(fileId);
      throw e;
    }
    while (queue.length >= capacity && !stopping) await new Promise<void>((r) => spaceWaiters.push(r));
    if (stopping) return;
    queue.push(fileId);
    idleWorkers.shift()?.();
  };

  /** Computes and writes the checksum; false when the job is to be tried again later. */
  const compute = async (fileId: string): Promise<boolean> => {
    const target = await checksumTarget(db, fileId);
    // gone, not complete (the server completing it queues it again) or done: nothing to do
    if (!target || !target.complete || target.checksum !== '') return true;
    const store = stores.get(target.store);
    if (!store) {
      log.warn('Cannot compute a checksum: the store is not enabled', { fileId, store: target.store });
      return false;
    }
    const hash = createHash('sha256');
    let bytes = 0;
    const stream = store.read({ fileId, location: target.location }, 0, target.length);
    const onAbort = () => stream.destroy(new Error('The checksum queue stopped.'));
    abort.signal.addEventListener('abort', onAbort, { once: true });
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        hash.update(chunk);
        bytes += chunk.length;
      }
    } finally {
      abort.signal.removeEventListener('abort', onAbort);
    }
    if (bytes !== target.length) {
      log.warn('Binary shorter than its file; no checksum', { fileId, expected: target.length, read: bytes });
      return false;
    }
    if (await writeChecksum(db, fileId, hash.digest('hex'))) log.debug('Checksum computed', { fileId });
    return true;
  };

  const worker = async (): Promise<void> => {
    while (!stopping) {
      const fileId = queue.shift();
      if (fileId === undefined) {
        await new Promise<void>((r) => idleWorkers.push(r));
        continue;
      }
      wakeSpace();
      try {
        if (await compute(fileId)) await finishJob(db, fileId, owner);
        else await deferJob(db, fileId, owner, Date.now() + RETRY_MS);
      } catch (e) {
        if (!stopping) {
          log.warn('Checksum computation failed', { fileId, error: message(e) });
          await deferJob(db, fileId, owner, Date.now() + RETRY_MS).catch(() => undefined);
        }
      } finally {
        known.delete(fileId);
      }
    }
  };

  const scan = async (): Promise<void> => {
    let after = '';
    let found = 0;
    while (!stopping) {
      const ids = await pendingChecksums(db, after, SCAN_PAGE);
      for (const id of ids) await enqueue(id);
      found += ids.length;
      if (ids.length < SCAN_PAGE) break;
      after = ids[ids.length - 1]!;
    }
    if (found > 0) log.info('Queued pending checksums', { files: found });
  };

  /** Takes over the jobs whose lease ran out (their server died, or a failed job is due again). */
  let takingOver = false;
  const takeOver = async (): Promise<void> => {
    if (takingOver || stopping) return;
    takingOver = true;
    try {
      const ids = await expiredJobs(db, Date.now(), SCAN_PAGE);
      for (const id of ids) await enqueue(id);
    } catch (e) {
      log.warn('Looking for checksum jobs to take over failed', { error: message(e) });
    } finally {
      takingOver = false;
    }
  };

  const every = (ms: number, fn: () => Promise<void>): void => {
    const t = setInterval(() => void fn().catch(() => undefined), Math.max(50, Math.floor(ms)));
    t.unref();
    timers.push(t);
  };

  return {
    async claim(fileId) {
      if (!settings.enable || stopping) return;
      await claimed(fileId);
    },
    async drop(fileId) {
      if (!settings.enable || known.has(fileId)) return;
      await finishJob(db, fileId, owner);
    },
    enqueue,
    start() {
      if (running || !settings.enable) return;
      running = true;
      for (let i = 0; i < parallel; i++) workers.push(worker());
      // renewed a few times per lease, so a late renewal still finds it
      every(lease / 3, () => renewJobs(db, owner, Date.now() + lease));
      every(lease / 2, takeOver);
      scan().catch((e) => log.warn('Scanning for pending checksums failed', { error: message(e) }));
    },
    async stop() {
      stopping = true;
      for (const t of timers) clearInterval(t);
      abort.abort();
      wakeSpace();
      while (idleWorkers.length > 0) idleWorkers.shift()!();
      queue.length = 0;
      await Promise.allSettled(workers);
      if (running) await releaseJobs(db, owner).catch((e) => log.warn('Could not hand the checksum jobs to other servers', { error: message(e) }));
    },
  };
};
