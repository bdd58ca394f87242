import { describe, expect, it } from 'vitest';
import { writeAsReceived } from '../../../server/core/stores/stream-util.js';

/** A source the test feeds by hand: `push` a chunk, `fail` with an error, `end`; `pulls` counts the chunks taken. */
const handFed = () => {
  const queue: Array<Buffer | Error | null> = [];
  let wake: (() => void) | undefined;
  const state = { pulls: 0, returned: false };
  const put = (item: Buffer | Error | null) => {
    queue.push(item);
    wake?.();
  };
  async function* source(): AsyncGenerator<Buffer> {
    try {
      for (;;) {
        while (queue.length === 0) await new Promise<void>((r) => (wake = r));
        const item = queue.shift()!;
        if (item === null) return;
        if (item instanceof Error) throw item;
        state.pulls++;
        yield item;
      }
    } finally {
      state.returned = true;
    }
  }
  return { source: source(), state, push: (b: Buffer) => put(b), fail: (e: Error) => put(e), end: () => put(null) };
};

/** A source whose every `next()` the test answers by hand, in the order asked: `nexts` holds the answers still owed. */
const answeredByHand = () => {
  const nexts: Array<(r: IteratorResult<Buffer>) => void> = [];
  const source: AsyncIterableIterator<Buffer> = {
    next: () => new Promise<IteratorResult<Buffer>>((r) => nexts.push(r)),
    return: () => Promise.resolve({ value: undefined, done: true }),
    [Symbol.asyncIterator]() {
      return this;
    },
  };
  return { source, nexts };
};

/** A write the test completes by hand: each call is recorded with its parts' sizes and waits for `finish` or `reject`. */
const handWrite = () => {
  const calls: number[][] = [];
  const pending: Array<{ resolve: () => void; reject: (e: Error) => void }> = [];
  const write = (parts: Buffer[]) =>
    new Promise<void>((resolve, reject) => {
      calls.push(parts.map((p) => p.length));
      pending.push({ resolve, reject });
    });
  return {
    calls,
    write,
    finish: () => pending.shift()!.resolve(),
    reject: (e: Error) => pending.shift()!.reject(e),
    get waiting() {
      return pending.length;
    },
  };
};

/** Lets every settled promise run its callbacks. */
const tick = () => new Promise<void>((r) => setImmediate(r));

const bytes = (n: number, fill = 1) => Buffer.alloc(n, fill);

describe('writeAsReceived', () => {
  it('writes the first chunk at once and what arrives during that write together in the next call', async () => {
    const src = handFed();
    const w = handWrite();
    const done = writeAsReceived(src.source, 1024, w.write);
    src.push(bytes(10));
    await tick();
    expect(w.calls).toEqual([[10]]);
    src.push(bytes(20));
    src.push(bytes(30));
    await tick();
    expect(w.calls).toHaveLength(1);
    w.finish();
    await tick();
    expect(w.calls).toEqual([[10], [20, 30]]);
    w.finish();
    src.end();
    expect(await done).toBe(60);
    expect(w.calls).toEqual([[10], [20, 30]]);
  });

  it('passes the received chunks themselves, without copies', async () => {
    const chunk = bytes(8, 7);
    const seen: Buffer[] = [];
    const n = await writeAsReceived(
      (async function* () {
        yield chunk;
      })(),
      1024,
      async (parts) => {
        seen.push(...parts);
      },
    );
    expect(n).toBe(8);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.buffer).toBe(chunk.buffer);
  });

  it('stops reading while `max` bytes wait for a running write, and goes on once it is done', async () => {
    const src = handFed();
    const w = handWrite();
    const done = writeAsReceived(src.source, 100, w.write);
    src.push(bytes(10)); // written at once
    for (let i = 0; i < 5; i++) src.push(bytes(60));
    await tick();
    // 10 in flight, 60 + 60 waiting reach the limit: the third 60 is not taken
    expect(src.state.pulls).toBe(3);
    expect(w.calls).toEqual([[10]]);
    w.finish();
    await tick();
    expect(w.calls).toEqual([[10], [60, 60]]);
    expect(src.state.pulls).toBe(5);
    w.finish();
    await tick();
    expect(w.calls).toEqual([[10], [60, 60], [60, 60]]);
    expect(src.state.pulls).toBe(6);
    w.finish();
    await tick();
    w.finish();
    src.end();
    expect(await done).toBe(310);
    expect(w.calls).toEqual([[10], [60, 60], [60, 60], [60]]);
  });

  it('writes what arrived before the source failed, then rethrows the source error', async () => {
    const src = handFed();
    const w = handWrite();
    const done = writeAsReceived(src.source, 1024, w.write);
    done.catch(() => undefined);
    src.push(bytes(10));
    src.push(bytes(20));
    src.fail(new Error('client went away'));
    await tick();
    w.finish();
    await tick();
    expect(w.calls).toEqual([[10], [20]]);
    w.finish();
    await expect(done).rejects.toThrow('client went away');
  });

  it('writes nothing after a failed write, stops reading the source and rethrows the write error', async () => {
    const src = handFed();
    const w = handWrite();
    const done = writeAsReceived(src.source, 1024, w.write);
    done.catch(() => undefined);
    src.push(bytes(10));
    await tick();
    src.push(bytes(20));
    await tick();
    w.reject(Object.assign(new Error('no space left'), { code: 'ENOSPC' }));
    await tick();
    src.push(bytes(30));
    await expect(done).rejects.toThrow('no space left');
    expect(w.calls).toEqual([[10]]);
    expect(w.waiting).toBe(0);
    expect(src.state.returned).toBe(true);
  });

  it('writes a chunk that arrives in the turn the previous write ends at once, not when the next one comes', async () => {
    const { source, nexts } = answeredByHand();
    const w = handWrite();
    const done = writeAsReceived(source, 1024, w.write);
    await tick();
    nexts.at(-1)!({ value: bytes(10), done: false });
    await tick();
    expect(w.calls).toEqual([[10]]);
    // the write ends and the next chunk arrives in the same turn; the client then pauses
    w.finish();
    nexts.at(-1)!({ value: bytes(20), done: false });
    await tick();
    await tick();
    expect(w.calls).toEqual([[10], [20]]);
    w.finish();
    nexts.at(-1)!({ value: undefined, done: true });
    expect(await done).toBe(30);
  });

  it('ends at once when a write fails while the source waits for room, without asking the client for more', async () => {
    const { source, nexts } = answeredByHand();
    const w = handWrite();
    const done = writeAsReceived(source, 100, w.write);
    done.catch(() => undefined);
    await tick();
    nexts.at(-1)!({ value: bytes(10), done: false });
    await tick();
    nexts.at(-1)!({ value: bytes(200), done: false });
    await tick();
    const asked = nexts.length;
    w.reject(new Error('no space left'));
    await expect(done).rejects.toThrow('no space left');
    expect(nexts.length).toBe(asked);
    expect(w.calls).toEqual([[10]]);
  });

  it('returns 0 for an empty source without calling write', async () => {
    const w = handWrite();
    expect(await writeAsReceived((async function* () {})(), 1024, w.write)).toBe(0);
    expect(w.calls).toEqual([]);
  });
});
