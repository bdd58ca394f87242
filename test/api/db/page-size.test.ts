// SQLite's page size is chosen when the database file is created: large
// pages when file contents go into the database, SQLite's own 4 KiB when
// they go elsewhere (every commit writes its changed pages whole).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { ADMIN, startServer, type TestServer } from '../../support/server.js';

const pageSizeOf = (file: string): number => {
  const db = new Database(file, { readonly: true });
  try {
    return db.pragma('page_size', { simple: true }) as number;
  } finally {
    db.close();
  }
};

describe('the page size of a new SQLite database', () => {
  let server: TestServer | undefined;
  let dataDir: string | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    dataDir = undefined;
  });

  it('is 64 KiB when the database store is the default store', async () => {
    server = await startServer();
    expect(server.config.backend.files.defaultStore).toBe('database');
    expect(pageSizeOf(join(server.dataDir, 'pier.db'))).toBe(65536);
  });

  it('is 4 KiB when the default store is the file system, and stays so when the database store becomes the default', async () => {
    const fileSystem = { backend: { files: { 'default-store': 'filesystem', stores: { filesystem: { enabled: true } } } } };
    dataDir = mkdtempSync(join(tmpdir(), 'pier-page-size-'));
    server = await startServer({ config: fileSystem, dataDir });
    expect(pageSizeOf(join(dataDir, 'pier.db'))).toBe(4096);
    const token = await server.login(ADMIN.login, ADMIN.password);
    const share = await server.request('POST', '/api/v2/sec/upload/new', { name: 'n', validity: 86_400_000, maxViews: 10, description: null, password: null }, { token });
    expect(share.status).toBe(200);
    await server.stop();
    server = await startServer({ dataDir });
    expect(server.config.backend.files.defaultStore).toBe('database');
    expect(pageSizeOf(join(dataDir, 'pier.db'))).toBe(4096);
    const shares = await server.request<{ items: Array<{ id: string }> }>('GET', '/api/v2/sec/share/search', undefined, { token: await server.login(ADMIN.login, ADMIN.password) });
    expect(shares.body.items.map((x) => x.id)).toContain((share.body as { id: string }).id);
  });
});
