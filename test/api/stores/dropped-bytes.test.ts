/**
 * The stores count the bytes of a request body for young collections only
 * once they are written: a collection that runs then finds those buffers
 * dead, instead of moving them to the old generation, where only a major
 * collection frees them.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { randomId } from '../../../server/common/ids.js';
import { createDatabaseStore } from '../../../server/core/stores/database.store.js';
import { createFileSystemStore } from '../../../server/core/stores/filesystem.store.js';
import { openDatabase } from '../../../server/db/connect.js';
import { migrateToLatest } from '../../../server/db/migrations/index.js';

const seen = vi.hoisted(() => ({
  counted: 0,
  /** the bytes the store holds right now, read synchronously */
  stored: (): number => 0,
  calls: [] as Array<{ counted: number; stored: number }>,
}));

vi.mock('../../../server/process/young-collection.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../server/process/young-collection.js')>();
  return {
    ...real,
    droppedExternalBytes: (bytes: number) => {
      seen.counted += bytes;
      seen.calls.push({ counted: seen.counted, stored: seen.stored() });
      real.droppedExternalBytes(bytes);
    },
  };
});

const root = mkdtempSync(join(tmpdir(), 'pier-dropped-bytes-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A request body: `count` chunks of 64 KiB, a turn of the event loop apart (as from a socket). */
async function* body(count: number): AsyncGenerator<Buffer> {
  for (let i = 0; i < count; i++) {
    await new Promise((r) => setImmediate(r));
    yield Buffer.alloc(64 * 1024, i);
  }
}

const hint = { shareId: randomId(), shareName: 'Counted', fileName: 'a.bin' };

describe('bytes of a request body count for young collections once they are written', () => {
  beforeEach(() => {
    seen.counted = 0;
    seen.calls = [];
    seen.stored = () => 0;
  });

  it('file-system store: never counts bytes that are not yet in the file', async () => {
    const dir = join(root, 'files');
    const store = await createFileSystemStore({ id: 'files', directory: dir, cleanEmptyDirs: true });
    const ref = { fileId: randomId(), location: '' };
    ref.location = await store.create(ref.fileId, hint);
    seen.stored = () => statSync(join(dir, ref.location)).size;
    expect(await store.append(ref, 0, body(20), Infinity)).toBe(20 * 64 * 1024);
    expect(seen.counted).toBe(20 * 64 * 1024);
    expect(seen.calls.length).toBeGreaterThan(0);
    for (const c of seen.calls) expect(c.counted).toBeLessThanOrEqual(c.stored);
  });

  it('database store (SQLite): never counts bytes that are not yet in a stored chunk', async () => {
    const file = join(root, 'pier.db');
    const db = await openDatabase({ url: `jdbc:sqlite:${file}`, user: '', password: '' });
    const reader = new SqliteDatabase(file, { readonly: true });
    try {
      await migrateToLatest(db);
      const store = createDatabaseStore({ id: 'database', db: db.db, chunkSize: 256 * 1024 });
      const ref = { fileId: randomId(), location: '' };
      await store.create(ref.fileId, hint);
      const sum = reader.prepare('select coalesce(sum(chunk_len), 0) as n from file_chunks where file_id = ?').pluck();
      seen.stored = () => Number(sum.get(ref.fileId));
      expect(await store.append(ref, 0, body(20), Infinity)).toBe(20 * 64 * 1024);
      expect(seen.counted).toBe(20 * 64 * 1024);
      expect(seen.calls.length).toBeGreaterThan(0);
      for (const c of seen.calls) expect(c.counted).toBeLessThanOrEqual(c.stored);
    } finally {
      reader.close();
      await db.close();
    }
  });
});
