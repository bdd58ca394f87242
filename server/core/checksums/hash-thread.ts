/**
 * SHA-256 of bytes as they stream in, computed on one worker thread so that
 * hashing an upload (about 0.6 s of CPU per GiB) does not take turns with the
 * event loop that receives it; a hash of at most `INLINE_BYTES` declared
 * bytes runs on the calling thread instead.
 *
 * - bytes are copied into batches that move to the thread without a
 *   further copy; a hash's first batch is `FIRST_BATCH_BYTES` and each next
 *   one twice the last, up to `BATCH_BYTES`, so an upload that sends little
 *   holds little; batches come back for reuse, up to `MAX_BATCHES_OUT` of
 *   each size;
 * - while `MAX_BATCHES_OUT` or more batches wait for the thread, `update`
 *   returns a promise to wait for (every waiter goes on as soon as fewer
 *   wait), so memory stays bounded however fast the bytes arrive;
 * - a hash that is `flush`ed holds no batch, so an upload waiting for its
 *   next request keeps no memory but the thread's hash state;
 * - the thread ends after `IDLE_MS` without use, giving its memory back;
 * - when the thread fails, ends or cannot be started, every hash it held
 *   gives `undefined` and the caller falls back to the checksum queue; the
 *   next hash starts a new thread.
 */
import { createHash, type Hash } from 'node:crypto';
import { Worker } from 'node:worker_threads';

export interface StreamingHash {
  /** Adds bytes; a promise when too many bytes wait for the thread (await it before the next update). */
  update(chunk: Uint8Array): Promise<void> | undefined;
  /** Hands the bytes of a partly filled batch to the thread. */
  flush(): void;
  /** The hex SHA-256 of every byte added; undefined when the thread failed. Ends the hash. */
  digest(): Promise<string | undefined>;
  /** Forgets the hash (an upload that will not be hashed to its end). */
  drop(): void;
}

export interface HashThread {
  /**
   * A new hash. `bytes`: how many bytes it will be given at most, when the
   * caller knows; a hash of at most `INLINE_BYTES` runs on the calling thread.
   */
  start(bytes?: number): StreamingHash;
  /** Ends the thread; hashes still running give undefined. */
  stop(): Promise<void>;
}

export const BATCH_BYTES = 1024 * 1024;
export const FIRST_BATCH_BYTES = 64 * 1024;
export const MAX_BATCHES_OUT = 4;
const IDLE_MS = 30_000;
/**
 * Hashes of at most this many bytes run on the calling thread: hashing them
 * there takes about as long as handing their growing batches to the thread,
 * and a process that only receives small files never starts the thread
 * (some 10 MB) or keeps its batches.
 */
export const INLINE_BYTES = 2 * 1024 * 1024;

type ToThread = { id: number; data: ArrayBuffer; length: number } | { id: number; end: true } | { id: number; drop: true };
type FromThread = { back: ArrayBuffer } | { id: number; hex: string };

const THREAD_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const hashes = new Map();
parentPort.on('message', (m) => {
  if (m.drop) { hashes.delete(m.id); return; }
  let h = hashes.get(m.id);
  if (!h) hashes.set(m.id, (h = createHash('sha256')));
  if (m.data) {
    h.update(new Uint8Array(m.data, 0, m.length));
    parentPort.postMessage({ back: m.data }, [m.data]);
  }
  if (m.end) {
    hashes.delete(m.id);
    parentPort.postMessage({ id: m.id, hex: h.digest('hex') });
  }
});
`;

interface Running {
  worker: Worker;
  /** digests asked for, by hash id */
  waiting: Map<number, (hex: string | undefined) => void>;
  out: number;
  /** updates waiting for batches to come back */
  blocked: Array<() => void>;
  /** when a hash last used the thread */
  used: number;
}

export const createHashThread = (idleMs = IDLE_MS): HashThread => {
  let running: Running | undefined;
  /** batches back from the thread, by size */
  const free = new Map<number, ArrayBuffer[]>();
  let nextId = 1;

  /** Keeps a batch for reuse, up to `MAX_BATCHES_OUT` of each size. */
  const recycle = (b: ArrayBuffer): void => {
    let kept = free.get(b.byteLength);
    if (!kept) free.set(b.byteLength, (kept = []));
    if (kept.length < MAX_BATCHES_OUT) kept.push(b);
  };

  const end = (r: Running): void => {
    if (running === r) running = undefined;
    for (const resolve of r.waiting.values()) resolve(undefined);
    r.waiting.clear();
    // batches out never come back from an ended thread
    r.out = 0;
    for (const go of r.blocked.splice(0)) go();
  };

  const stop = async (r: Running): Promise<void> => {
    end(r);
    free.clear();
    await r.worker.terminate();
  };

  /** Ends the thread once it has not been used for `idleMs` and nothing waits for it. */
  const idleCheck = (r: Running): void => {
    if (running !== r) return;
    const left = r.used + idleMs - Date.now();
    const busy = r.out > 0 || r.waiting.size > 0;
    if (left <= 0 && !busy) {
      void stop(r);
      return;
    }
    setTimeout(() => idleCheck(r), Math.max(left, 50)).unref();
  };

  const thread = (): Running => {
    if (running) return running;
    // the thread allocates next to nothing itself: a small heap
    const worker = new Worker(THREAD_SOURCE, { eval: true, resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 16 } });
    // the thread never keeps the process alive
    worker.unref();
    const r: Running = { worker, waiting: new Map(), out: 0, blocked: [], used: Date.now() };
    setTimeout(() => idleCheck(r), idleMs).unref();
    worker.on('message', (m: FromThread) => {
      if ('back' in m) {
        r.out -= 1;
        recycle(m.back);
        if (r.out < MAX_BATCHES_OUT) for (const go of r.blocked.splice(0)) go();
        return;
      }
      r.waiting.get(m.id)?.(m.hex);
      r.waiting.delete(m.id);
    });
    worker.on('error', () => end(r));
    worker.on('exit', () => end(r));
    running = r;
    return r;
  };

  const send = (r: Running, m: ToThread, transfer?: ArrayBuffer[]): boolean => {
    if (running !== r) return false;
    r.worker.postMessage(m, transfer);
    return true;
  };

  /** A hash on the calling thread. */
  const inlineHash = (): StreamingHash => {
    let h: Hash | undefined = createHash('sha256');
    return {
      update(chunk) {
        h?.update(chunk);
        return undefined;
      },
      flush: () => undefined,
      digest() {
        const hex = h?.digest('hex');
        h = undefined;
        return Promise.resolve(hex);
      },
      drop() {
        h = undefined;
      },
    };
  };

  /** A hash that gives no checksum: the thread could not be started. */
  const failedHash: StreamingHash = {
    update: () => undefined,
    flush: () => undefined,
    digest: () => Promise.resolve(undefined),
    drop: () => undefined,
  };

  return {
    start(bytes) {
      if (bytes !== undefined && bytes <= INLINE_BYTES) return inlineHash();
      let r: Running;
      try {
        r = thread();
      } catch {
        return failedHash;
      }
      r.used = Date.now();
      const id = nextId++;
      let failed = false;
      let done = false;
      let batch: Uint8Array | undefined;
      let fill = 0;
      let nextSize = FIRST_BATCH_BYTES;
      const newBatch = (): Uint8Array => {
        const size = nextSize;
        nextSize = Math.min(2 * nextSize, BATCH_BYTES);
        return new Uint8Array(free.get(size)?.pop() ?? new ArrayBuffer(size));
      };

      const hand = (): void => {
        if (!batch || fill === 0) return;
        const data = batch.buffer as ArrayBuffer;
        batch = undefined;
        if (!send(r, { id, data, length: fill }, [data])) failed = true;
        else r.out += 1;
        fill = 0;
      };

      return {
        update(chunk) {
          if (failed || done) return undefined;
          r.used = Date.now();
          let at = 0;
          while (at < chunk.length) {
            batch ??= newBatch();
            const n = Math.min(chunk.length - at, batch.length - fill);
            batch.set(chunk.subarray(at, at + n), fill);
            fill += n;
            at += n;
            if (fill === batch.length) hand();
          }
          if (r.out < MAX_BATCHES_OUT || running !== r) return undefined;
          return new Promise<void>((go) => r.blocked.push(go));
        },
        flush: hand,
        async digest() {
          if (done) return undefined;
          hand();
          done = true;
          if (failed || running !== r) return undefined;
          const hex = new Promise<string | undefined>((resolve) => r.waiting.set(id, resolve));
          send(r, { id, end: true });
          return hex;
        },
        drop() {
          if (done) return;
          done = true;
          if (batch) recycle(batch.buffer as ArrayBuffer);
          batch = undefined;
          send(r, { id, drop: true });
        },
      };
    },

    async stop() {
      if (running) await stop(running);
    },
  };
};
