/**
 * Runs the store contract against the database store on one dialect: a
 * throwaway server (or SQLite file) and a fresh, migrated database.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { createDatabaseStore } from '../../../server/core/stores/database.store.js';
import { openDatabase, type DatabaseConfig, type Db } from '../../../server/db/connect.js';
import { migrateToLatest } from '../../../server/db/migrations/index.js';
import { storeContract } from './store-contract.js';

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
}
