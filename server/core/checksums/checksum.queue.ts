/**
 * The background queue of `compute-checksum`: SHA-256 of complete files whose
 * checksum could not be computed while their bytes streamed in (a tus upload
 * resumed in another process, a restart in the middle of an upload).
 *
 * - `capacity` bounds the queue: `enqueue` waits while it is full
 *   (back-pressure on the uploads that complete);
 * - `parallel` workers read binaries through their store;
 * - the result is written only into a row whose checksum is still `''`, so a
 *   duplicate computation (another process, a restart) writes the same value
 *   and never replaces a checksum with `''`;
 * - at start-up the complete files with an empty checksum are found in the
 *   database and queued again, so pending work survives a restart.
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Logger } from '../../common/log.js';
import type { Database } from '../../db/schema.js';
import type { StoreRegistry } from '../stores/binary-store.js';
import { checksumTarget, pendingChecksums, writeChecksum } from '../uploads/file.repository.js';

export interface ChecksumSettings {
  enable: boolean;
  capacity: number;
  parallel: number;
}

export interface ChecksumQueue {
  /**
   * Queues the binary `fileId` (ignored when disabled, stopped or already
   * queued). Resolves once it is in the queue: waits while the queue is full.
   */
  enqueue(fileId: string): Promise<void>;
  /** Starts the workers and the start-up scan of pending files. */
  start(): void;
  /** Stops taking work, ends running reads and waits for the workers. */
  stop(): Promise<void>;
}

export interface ChecksumQueueDeps {
  db: Kysely<Database>;
  stores: StoreRegistry;
  settings: ChecksumSettings;
  log: Logger;
}

const SCAN_PAGE = 200;

/** Creates the queue; nothing runs until `start()`. */
export const createChecksumQueue = ({ db, stores, settings, log }: ChecksumQueueDeps): ChecksumQueue => {
  const capacity = Math.max(1, settings.capacity);
  const parallel = Math.max(1, settings.parallel);
  const queue: string[] = [];
  const known = new Set<string>();
  const spaceWaiters: (() => void)[] = [];
  const idleWorkers: (() => void)[] = [];
  let running = false;
  let stopping = false;
  const abort = new AbortController();
  const workers: Promise<void>[] = [];

  const wakeSpace = (): void => {
    while (spaceWaiters.length > 0 && (queue.length < capacity || stopping)) spaceWaiters.shift()!();
  };

  const enqueue = async (fileId: string): Promise<void> => {
    if (!settings.enable || stopping || known.has(fileId)) return;
    known.add(fileId);
    while (queue.length >= capacity && !stopping) await new Promise<void>((r) => spaceWaiters.push(r));
    if (stopping) return;
    queue.push(fileId);
    idleWorkers.shift()?.();
  };

  const compute = async (fileId: string): Promise<void> => {
    const target = await checksumTarget(db, fileId);
    if (!target || !target.complete || target.checksum !== '') return;
    const store = stores.get(target.store);
    if (!store) {
      log.warn('Cannot compute a checksum: the store is not enabled', { fileId, store: target.store });
      return;
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
      return;
    }
    if (await writeChecksum(db, fileId, hash.digest('hex'))) log.debug('Checksum computed', { fileId });
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
        await compute(fileId);
      } catch (e) {
        if (!stopping) log.warn('Checksum computation failed', { fileId, error: e instanceof Error ? e.message : String(e) });
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

  return {
    enqueue,
    start() {
      if (running || !settings.enable) return;
      running = true;
      for (let i = 0; i < parallel; i++) workers.push(worker());
      scan().catch((e) => log.warn('Scanning for pending checksums failed', { error: e instanceof Error ? e.message : String(e) }));
    },
    async stop() {
      stopping = true;
      abort.abort();
      wakeSpace();
      while (idleWorkers.length > 0) idleWorkers.shift()!();
      queue.length = 0;
      await Promise.allSettled(workers);
    },
  };
};
