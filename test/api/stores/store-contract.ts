/**
 * THE contract every binary store passes (database on three dialects, plain
 * files, S3). A test file calls `storeContract(name, make)` with a function
 * that creates the store for a chunk size; the chunk size matters for the
 * database and S3 stores only.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../server/common/errors.js';
import { randomId } from '../../../server/common/ids.js';
import type { BinaryRef, BinaryStore } from '../../../server/core/stores/binary-store.js';

export type MakeStore = (chunkSize: number) => Promise<BinaryStore>;

/** Small, odd chunk size so that tests cross many chunk boundaries. */
const CHUNK = 1000;
const MiB = 1024 * 1024;

/** `data` in pieces of varying, odd sizes (like network reads). */
export async function* pieces(data: Buffer, sizes = [1, 7, 333, 1024, 4099, 64 * 1024]): AsyncGenerator<Buffer> {
  let at = 0;
  for (let i = 0; at < data.length; i++) {
    const n = sizes[i % sizes.length]!;
    yield data.subarray(at, at + n);
    at += n;
    await Promise.resolve();
  }
}

export const readAll = async (stream: Readable): Promise<Buffer> => {
  const parts: Buffer[] = [];
  for await (const p of stream) parts.push(p as Buffer);
  return Buffer.concat(parts);
};

const expectCode = async (p: Promise<unknown>, code: string): Promise<void> => {
  const e: unknown = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(AppError);
  expect((e as AppError).code).toBe(code);
};

/** Deterministic pseudo-random bytes, produced lazily in 64 KiB pieces. */
async function* generated(total: number, onPiece: (produced: number) => Promise<void>): AsyncGenerator<Buffer> {
  const seed = createHash('sha256').update('pier').digest();
  let produced = 0;
  let counter = 0;
  while (produced < total) {
    const piece = Buffer.alloc(Math.min(64 * 1024, total - produced));
    for (let at = 0; at < piece.length; at += 32) {
      createHash('sha256').update(seed).update(String(counter++)).digest().copy(piece, at);
    }
    await onPiece(produced);
    produced += piece.length;
    yield piece;
  }
}

const sameRef = (a: BinaryRef, b: BinaryRef): boolean =>
  a.fileId !== '' && b.fileId !== '' ? a.fileId === b.fileId : a.location === b.location;

export function storeContract(name: string, make: MakeStore): void {
  describe(`binary store contract: ${name}`, () => {
    const stores: BinaryStore[] = [];
    const open = async (chunkSize = CHUNK): Promise<BinaryStore> => {
      const s = await make(chunkSize);
      stores.push(s);
      return s;
    };
    afterAll(async () => {
      await Promise.all(stores.map((s) => s.close?.()));
    });

    const fresh = async (store: BinaryStore, fileName = 'data.bin'): Promise<BinaryRef> => {
      const fileId = randomId();
      const location = await store.create(fileId, { shareId: randomId(), shareName: null, fileName });
      return { fileId, location };
    };

    it('creates an empty binary, appends in odd pieces and reads it back whole', async () => {
      const store = await open();
      const ref = await fresh(store);
      expect(await store.size(ref)).toBe(0);
      expect((await readAll(store.read(ref))).length).toBe(0);
      const data = randomBytes(4321);
      expect(await store.append(ref, 0, pieces(data), Infinity)).toBe(data.length);
      expect(await store.size(ref)).toBe(data.length);
      expect((await readAll(store.read(ref))).equals(data)).toBe(true);
      expect(await store.append(ref, data.length, pieces(Buffer.alloc(0)), Infinity)).toBe(0);
      expect(await store.size(ref)).toBe(data.length);
    });

    it('reads any range: first byte, last byte, across chunk boundaries, whole chunks, empty ranges', async () => {
      const store = await open();
      const ref = await fresh(store);
      const data = randomBytes(3 * CHUNK + 17);
      await store.append(ref, 0, pieces(data), Infinity);
      const n = data.length;
      const ranges: [number, number | undefined][] = [
        [0, 1], [n - 1, n], [n - 1, undefined], [CHUNK - 1, CHUNK + 1], [CHUNK, 2 * CHUNK],
        [CHUNK - 3, 3 * CHUNK + 2], [0, n], [0, undefined], [1234, undefined], [500, 500], [n, n],
        [n, undefined], [2 * CHUNK, 2 * CHUNK + 1], [3 * CHUNK, n],
      ];
      for (let i = 0; i < 20; i++) {
        const a = Math.floor(Math.random() * n);
        ranges.push([a, a + Math.floor(Math.random() * (n - a + 1))]);
      }
      for (const [start, end] of ranges) {
        const got = await readAll(store.read(ref, start, end));
        expect({ start, end, equal: got.equals(data.subarray(start, end)) }).toEqual({ start, end, equal: true });
      }
    });

    it('positioned reads, where the store offers them, fill buffers of any size from any byte and give 0 at the end', async (ctx) => {
      const store = await open();
      if (!store.openReader) {
        ctx.annotate(`${name} reads by stream only`);
        expect(store.type).toBe('s3');
        return;
      }
      const ref = await fresh(store);
      const data = randomBytes(3 * CHUNK + 17);
      await store.append(ref, 0, pieces(data), Infinity);
      const reader = await store.openReader(ref);
      try {
        for (const size of [1, 7, CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK + 5, 4 * CHUNK]) {
          const into = Buffer.alloc(size);
          const got: Buffer[] = [];
          // from an odd start to the end, each read continuing where the last one stopped
          for (let at = 3; ; ) {
            const n = await reader.read(into, at);
            if (n === 0) break;
            expect(n).toBeLessThanOrEqual(size);
            got.push(Buffer.from(into.subarray(0, n)));
            at += n;
          }
          expect({ size, equal: Buffer.concat(got).equals(data.subarray(3)) }).toEqual({ size, equal: true });
        }
        expect(await reader.read(Buffer.alloc(10), data.length)).toBe(0);
        const last = Buffer.alloc(10);
        expect(await reader.read(last, data.length - 4)).toBe(4);
        expect(last.subarray(0, 4).equals(data.subarray(-4))).toBe(true);
      } finally {
        await reader.close();
      }
    });

    it('appends at offsets that are not chunk-aligned (tus resumes anywhere)', async () => {
      const store = await open();
      const ref = await fresh(store);
      const data = randomBytes(5 * CHUNK + 123);
      const cuts = [0, 1, 999, 1000, 1500, 2277, 2278, 4000, data.length];
      for (let i = 0; i + 1 < cuts.length; i++) {
        const part = data.subarray(cuts[i], cuts[i + 1]);
        expect(await store.append(ref, cuts[i]!, pieces(part, [5, 301]), Infinity)).toBe(part.length);
        expect(await store.size(ref)).toBe(cuts[i + 1]);
      }
      expect((await readAll(store.read(ref))).equals(data)).toBe(true);
      expect((await readAll(store.read(ref, 1499, 2279))).equals(data.subarray(1499, 2279))).toBe(true);
    });

    it('refuses an append at the wrong offset with conflict and writes nothing', async () => {
      const store = await open();
      const ref = await fresh(store);
      const data = randomBytes(1500);
      await store.append(ref, 0, pieces(data), Infinity);
      await expectCode(store.append(ref, 1499, pieces(randomBytes(10)), Infinity), 'conflict');
      await expectCode(store.append(ref, 1501, pieces(randomBytes(10)), Infinity), 'conflict');
      await expectCode(store.append(ref, 0, pieces(randomBytes(10)), Infinity), 'conflict');
      expect(await store.size(ref)).toBe(1500);
      expect((await readAll(store.read(ref))).equals(data)).toBe(true);
    });

    it('stops at maxBytes with too-large and keeps the bytes up to the limit', async () => {
      const store = await open();
      const ref = await fresh(store);
      const first = randomBytes(700);
      await store.append(ref, 0, pieces(first), Infinity);
      const more = randomBytes(5000);
      await expectCode(store.append(ref, 700, pieces(more), 2345), 'too-large');
      expect(await store.size(ref)).toBe(700 + 2345);
      const all = await readAll(store.read(ref));
      expect(all.equals(Buffer.concat([first, more.subarray(0, 2345)]))).toBe(true);
      // exactly the limit is fine
      const ref2 = await fresh(store);
      expect(await store.append(ref2, 0, pieces(more), 5000)).toBe(5000);
      await expectCode(store.append(ref2, 5000, pieces(randomBytes(1)), 0), 'too-large');
      expect(await store.size(ref2)).toBe(5000);
    });

    it('keeps what arrived when the source fails midway, and resumes from there', async () => {
      const store = await open();
      const ref = await fresh(store);
      const data = randomBytes(4 * CHUNK);
      const broken = async function* (): AsyncGenerator<Buffer> {
        yield* pieces(data.subarray(0, 2500));
        throw new Error('connection reset');
      };
      await expect(store.append(ref, 0, broken(), Infinity)).rejects.toThrow('connection reset');
      expect(await store.size(ref)).toBe(2500);
      await store.append(ref, 2500, pieces(data.subarray(2500)), Infinity);
      expect((await readAll(store.read(ref))).equals(data)).toBe(true);
    });

    it('deletes idempotently, and lists what it holds', async () => {
      const store = await open();
      const a = await fresh(store, 'a.txt');
      const b = await fresh(store, 'b.txt');
      await store.append(a, 0, pieces(randomBytes(2500)), Infinity);
      await store.append(b, 0, pieces(randomBytes(10)), Infinity);
      const listed: BinaryRef[] = [];
      for await (const r of store.list()) listed.push(r);
      expect(listed.some((r) => sameRef(r, a))).toBe(true);
      expect(listed.some((r) => sameRef(r, b))).toBe(true);
      await store.delete(a);
      await store.delete(a);
      expect(await store.size(a)).toBe(0);
      expect(await store.size(b)).toBe(10);
      const after: BinaryRef[] = [];
      for await (const r of store.list()) after.push(r);
      expect(after.some((r) => sameRef(r, a))).toBe(false);
      expect(after.some((r) => sameRef(r, b))).toBe(true);
    });

    it('streams a 20 MiB binary in and out with equal SHA-256, consuming the source lazily', async () => {
      const store = await open(512 * 1024);
      const ref = await fresh(store, 'large.bin');
      const total = 20 * MiB;
      const sent = createHash('sha256');
      let maxAhead = 0;
      const source = generated(total, async (produced) => {
        // Every 2 MiB: what was produced but is not stored yet stays small.
        if (produced % (2 * MiB) === 0) maxAhead = Math.max(maxAhead, produced - (await store.size(ref)));
      });
      const tee = async function* (): AsyncGenerator<Buffer> {
        for await (const p of source) {
          sent.update(p);
          yield p;
        }
      };
      expect(await store.append(ref, 0, tee(), Infinity)).toBe(total);
      expect(maxAhead).toBeLessThanOrEqual(3 * MiB);
      expect(await store.size(ref)).toBe(total);

      const stream = store.read(ref);
      const got = createHash('sha256');
      let buffered = 0;
      let seen = 0;
      for await (const p of stream) {
        got.update(p as Buffer);
        seen += (p as Buffer).length;
        buffered = Math.max(buffered, stream.readableLength);
        if (seen < MiB) await new Promise((r) => setTimeout(r, 20)); // a slow reader at first
      }
      expect(seen).toBe(total);
      expect(got.digest('hex')).toBe(sent.digest('hex'));
      expect(buffered).toBeLessThanOrEqual(4 * MiB);

      // a range in the middle, crossing chunks
      const mid = await readAll(store.read(ref, 10 * MiB - 5, 10 * MiB + 600 * 1024));
      expect(mid.length).toBe(600 * 1024 + 5);
      await store.delete(ref);
    });
  });
}
