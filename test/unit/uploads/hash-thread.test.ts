import { createHash, randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { BATCH_BYTES, createHashThread, MAX_BATCHES_OUT, type HashThread, type StreamingHash } from '../../../server/core/checksums/hash-thread.js';

const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

/** Adds `data` in pieces of `piece` bytes, waiting whenever the hash asks to. */
const feed = async (h: StreamingHash, data: Buffer, piece: number): Promise<void> => {
  for (let at = 0; at < data.length; at += piece) {
    const wait = h.update(data.subarray(at, at + piece));
    if (wait) await wait;
  }
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

  it(`asks the caller to wait once ${MAX_BATCHES_OUT} batches wait for the thread`, async () => {
    thread = createHashThread();
    const h = thread.start();
    const batch = randomBytes(BATCH_BYTES);
    // the thread's answers come on a later turn of the event loop: these all stay out
    const waits = Array.from({ length: MAX_BATCHES_OUT }, () => h.update(batch));
    expect(waits.slice(0, -1)).toEqual(Array(MAX_BATCHES_OUT - 1).fill(undefined));
    expect(waits.at(-1)).toBeInstanceOf(Promise);
    await waits.at(-1);
    expect(await h.digest()).toBe(sha256(Buffer.concat(Array(MAX_BATCHES_OUT).fill(batch))));
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
});
