import { createHash, randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { BATCH_BYTES, createHashThread, FIRST_BATCH_BYTES, INLINE_BYTES, MAX_BATCHES_OUT, type HashThread, type StreamingHash } from '../../../server/core/checksums/hash-thread.js';

const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

/** Adds `data` in pieces of `piece` bytes, waiting whenever the hash asks to. */
const feed = async (h: StreamingHash, data: Buffer, piece: number): Promise<void> => {
  for (let at = 0; at < data.length; at += piece) {
    const wait = h.update(data.subarray(at, at + piece));
    if (wait) await wait;
  }
};

/** Counts the `ArrayBuffer`s constructed until `restore` is called. */
const countNewArrayBuffers = (): { made: number; restore(): void } => {
  const Original = globalThis.ArrayBuffer;
  const counter = {
    made: 0,
    restore: () => {
      globalThis.ArrayBuffer = Original;
    },
  };
  globalThis.ArrayBuffer = new Proxy(Original, {
    construct(target, args: [number]) {
      counter.made += 1;
      return new target(...args);
    },
  });
  return counter;
};

describe('the hash thread', () => {
  let thread: HashThread | undefined;
  afterEach(async () => {
    await thread?.stop();
    thread = undefined;
  });

  it('gives the SHA-256 of every byte added, across batches and flushes', async () => {
    thread = createHashThread();
    const data = randomBytes(3 * BATCH_BYTES + 12_345);
    const h = thread.start();
    // three "requests" of odd sizes, each ending with a flush
    const cuts = [0, 100_001, 2 * BATCH_BYTES + 7, data.length];
    for (let i = 0; i + 1 < cuts.length; i++) {
      await feed(h, data.subarray(cuts[i], cuts[i + 1]), 65_536);
      h.flush();
    }
    expect(await h.digest()).toBe(sha256(data));
  });

  it('keeps hashes that run at the same time apart', async () => {
    thread = createHashThread();
    const inputs = [randomBytes(BATCH_BYTES + 1), randomBytes(10), Buffer.alloc(0), randomBytes(2 * BATCH_BYTES)];
    const hashes = inputs.map(() => thread!.start());
    // interleaved: one piece of each in turn
    for (let at = 0; at < 2 * BATCH_BYTES; at += 40_000) {
      for (const [i, h] of hashes.entries()) {
        const wait = h.update(inputs[i]!.subarray(at, at + 40_000));
        if (wait) await wait;
      }
    }
    expect(await Promise.all(hashes.map((h) => h.digest()))).toEqual(inputs.map(sha256));
  });

  it(`asks callers to wait while ${MAX_BATCHES_OUT} batches wait for the thread, and lets every waiter go on once fewer do`, async () => {
    thread = createHashThread();
    const big = thread.start();
    const data = randomBytes(BATCH_BYTES);
    // the thread's answers come on a later turn of the event loop: the growing batches of this one update all stay out
    const first = big.update(data);
    expect(first).toBeInstanceOf(Promise);
    // more waiters than batches out: each of these hands no batch at all
    const small = Array.from({ length: 6 }, () => thread!.start());
    const waits = small.map((h) => h.update(Buffer.from('x')));
    expect(waits.every((w) => w instanceof Promise)).toBe(true);
    const released = await Promise.race([Promise.all([first, ...waits]).then(() => true), new Promise((r) => setTimeout(() => r(false), 2000))]);
    expect(released).toBe(true);
    expect(await big.digest()).toBe(sha256(data));
    expect(await Promise.all(small.map((h) => h.digest()))).toEqual(small.map(() => sha256(Buffer.from('x'))));
  });

  it('holds little for a hash that has been sent little', async () => {
    thread = createHashThread();
    const before = process.memoryUsage().arrayBuffers;
    const hashes = Array.from({ length: 200 }, () => thread!.start());
    for (const h of hashes) h.update(Buffer.from('y'));
    const held = process.memoryUsage().arrayBuffers - before;
    // a first batch each, far below one full batch each (200 MiB)
    expect(held).toBeLessThan(200 * 2 * FIRST_BATCH_BYTES);
    for (const h of hashes) h.drop();
  });

  it('reuses the batches of every size: a hash after another of the same length allocates none', async () => {
    thread = createHashThread();
    const data = randomBytes(2 * BATCH_BYTES);
    const buffers = countNewArrayBuffers();
    try {
      const first = thread.start();
      await feed(first, data, 65_536);
      expect(await first.digest()).toBe(sha256(data));
      // the growing batches from FIRST_BATCH_BYTES up to BATCH_BYTES
      expect(buffers.made).toBeGreaterThanOrEqual(Math.log2(BATCH_BYTES / FIRST_BATCH_BYTES) + 1);
      buffers.made = 0;
      const second = thread.start();
      await feed(second, data, 65_536);
      expect(await second.digest()).toBe(sha256(data));
      expect(buffers.made).toBe(0);
    } finally {
      buffers.restore();
    }
  });

  it('gives no checksum for a dropped hash or one the stopped thread held, and starts a new thread after', async () => {
    thread = createHashThread();
    const dropped = thread.start();
    dropped.update(Buffer.from('abc'));
    dropped.drop();
    expect(await dropped.digest()).toBeUndefined();

    const cut = thread.start();
    cut.update(randomBytes(BATCH_BYTES + 5));
    await thread.stop();
    expect(await cut.digest()).toBeUndefined();

    const next = thread.start();
    next.update(Buffer.from('after'));
    expect(await next.digest()).toBe(sha256(Buffer.from('after')));
  });

  it('ends the thread once unused for its idle time: a hash it held gives no checksum, the next starts a new thread', async () => {
    thread = createHashThread(200);
    const paused = thread.start();
    paused.update(Buffer.from('first request'));
    paused.flush();
    // not idle while used: updates keep it running
    const kept = thread.start();
    for (let i = 0; i < 6; i++) {
      kept.update(Buffer.from('x'));
      await new Promise((r) => setTimeout(r, 60));
    }
    expect(await kept.digest()).toBe(sha256(Buffer.from('xxxxxx')));
    await new Promise((r) => setTimeout(r, 600));
    expect(await paused.digest()).toBeUndefined();
    const next = thread.start();
    next.update(Buffer.from('later'));
    expect(await next.digest()).toBe(sha256(Buffer.from('later')));
  });

  it(`hashes at most ${INLINE_BYTES} declared bytes on the calling thread: no batch, no waiting, and stopping the thread loses nothing`, async () => {
    thread = createHashThread();
    const data = randomBytes(INLINE_BYTES);
    const buffers = countNewArrayBuffers();
    let h: StreamingHash;
    try {
      h = thread.start(data.length);
      // one update of all the bytes: on the thread this hands out its batches and asks to wait
      expect(h.update(data)).toBeUndefined();
      expect(buffers.made).toBe(0);
    } finally {
      buffers.restore();
    }
    await thread.stop();
    expect(await h.digest()).toBe(sha256(data));
    // a digest ends the hash, as on the thread
    expect(await h.digest()).toBeUndefined();

    const dropped = thread.start(3);
    dropped.update(Buffer.from('abc'));
    dropped.drop();
    expect(await dropped.digest()).toBeUndefined();
  });

  it('hashes more declared bytes, or an unknown number, on the thread', async () => {
    thread = createHashThread();
    const data = randomBytes(BATCH_BYTES);
    for (const declared of [INLINE_BYTES + 1, undefined]) {
      const h = thread.start(declared);
      // the growing batches of one full batch of bytes all wait for the thread's answers
      const wait = h.update(data);
      expect(wait).toBeInstanceOf(Promise);
      await wait;
      expect(await h.digest()).toBe(sha256(data));
    }
  });
});
