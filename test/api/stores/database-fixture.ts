/**
 * Runs the store contract against the database store on one dialect: a
 * throwaway server (or SQLite file) and a fresh, migrated database.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { randomId } from '../../../server/common/ids.js';
import { createDatabaseStore } from '../../../server/core/stores/database.store.js';
import { openDatabase, type DatabaseConfig, type Db } from '../../../server/db/connect.js';
import { migrateToLatest } from '../../../server/db/migrations/index.js';
import { pieces, readAll, storeContract } from './store-contract.js';

export interface DatabaseServer {
  config: DatabaseConfig;
  stop(): Promise<void>;
}

export const sqliteServer = (): Promise<DatabaseServer> => {
  const dir = mkdtempSync(join(tmpdir(), 'pier-store-sqlite-'));
  return Promise.resolve({
    config: { url: `jdbc:sqlite:${join(dir, 'pier.db')}`, user: '', password: '' },
    stop: () => Promise.resolve(rmSync(dir, { recursive: true, force: true })),
  });
};

export function databaseStoreContract(name: string, start: () => Promise<DatabaseServer>): void {
  let server: DatabaseServer | undefined;
  let db: Db | undefined;
  beforeAll(async () => {
    server = await start();
    db = await openDatabase(server.config);
    await migrateToLatest(db);
  });
  afterAll(async () => {
    await db?.close();
    await server?.stop();
  });
  let n = 0;
  storeContract(`database (${name})`, (chunkSize) =>
    Promise.resolve(createDatabaseStore({ id: `database-${n++}`, db: db!.db, chunkSize })),
  );

  describe(`database store (${name}): staging buffers`, () => {
    it('keeps the staging buffer of an append for the next ones: many small files allocate one', async () => {
      const chunkSize = 64 * 1024;
      const store = createDatabaseStore({ id: `database-staging-${n++}`, db: db!.db, chunkSize });
      const files = Array.from({ length: 5 }, () => ({ ref: { fileId: randomId(), location: '' }, data: randomBytes(3 * chunkSize + 99) }));
      const allocations = vi.spyOn(Buffer, 'allocUnsafeSlow');
      try {
        for (const f of files) {
          await store.create(f.ref.fileId, { shareId: randomId(), shareName: null, fileName: 'f.bin' });
          // odd pieces: every stored chunk is joined from several parts
          expect(await store.append(f.ref, 0, pieces(f.data), Infinity)).toBe(f.data.length);
        }
        expect(allocations.mock.calls.filter(([size]) => size === chunkSize)).toHaveLength(1);
      } finally {
        allocations.mockRestore();
      }
      for (const f of files) expect((await readAll(store.read(f.ref))).equals(f.data)).toBe(true);
    });

    it('keeps no staging buffer larger than 4 MiB: with chunks of 5 MiB each append allocates its own', async () => {
      const chunkSize = 5 * 1024 * 1024;
      const store = createDatabaseStore({ id: `database-staging-${n++}`, db: db!.db, chunkSize });
      const allocations = vi.spyOn(Buffer, 'allocUnsafeSlow');
      try {
        for (let i = 0; i < 2; i++) {
          const ref = { fileId: randomId(), location: '' };
          await store.create(ref.fileId, { shareId: randomId(), shareName: null, fileName: 'f.bin' });
          await store.append(ref, 0, pieces(randomBytes(100_000)), Infinity);
        }
        expect(allocations.mock.calls.filter(([size]) => size === chunkSize)).toHaveLength(2);
      } finally {
        allocations.mockRestore();
      }
    });
  });
}
