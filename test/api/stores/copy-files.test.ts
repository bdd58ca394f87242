import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logger, LogFields } from '../../../server/common/log.js';
import { randomId } from '../../../server/common/ids.js';
import type { StoreConfig } from '../../../server/config/types.js';
import type { StoreRegistry } from '../../../server/core/stores/binary-store.js';
import { copyFiles } from '../../../server/core/stores/copy-files.js';
import { createStoreRegistry } from '../../../server/core/stores/registry.js';
import { openDatabase, type Db } from '../../../server/db/connect.js';
import { migrateToLatest } from '../../../server/db/migrations/index.js';
import { startServer } from '../../support/server.js';
import { pieces, readAll } from './store-contract.js';

interface Line {
  level: string;
  msg: string;
  fields: LogFields | undefined;
}

const capture = (): { log: Logger; lines: Line[] } => {
  const lines: Line[] = [];
  const at =
    (level: string) =>
    (msg: string, fields?: LogFields): void => {
      lines.push({ level, msg, fields });
    };
  const log: Logger = {
    trace: at('trace'),
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: () => log,
  };
  return { log, lines };
};

const storeConfig = (over: Partial<StoreConfig>): StoreConfig => ({
  enabled: true,
  type: 'default-database',
  directory: '',
  cleanEmptyDirs: true,
  endpoint: '',
  accessKey: '',
  secretKey: '',
  bucket: '',
  region: 'us-east-1',
  ...over,
});

const now = Date.now();

/** A share with one file row per entry, and its file_meta in `store`. */
const addShare = async (db: Db, name: string | null, files: { fileId: string; fileName: string; length: number; store: string }[]) => {
  const shareId = randomId();
  await db.db
    .insertInto('shares')
    .values({ id: shareId, account_id: 'acc', alias_id: null, name, validity: 1, max_views: 1, password: null, description: null, created: now })
    .execute();
  for (const f of files) {
    await db.db
      .insertInto('file_meta')
      .values({ file_id: f.fileId, mimetype: 'application/octet-stream', length: f.length, checksum: '', created: now, store: f.store, location: '' })
      .execute();
    await db.db
      .insertInto('share_files')
      .values({ id: randomId(), share_id: shareId, file_id: f.fileId, filename: f.fileName, created: now, real_size: f.length })
      .execute();
  }
  return shareId;
};

const meta = (db: Db, fileId: string) =>
  db.db.selectFrom('file_meta').select(['store', 'location']).where('file_id', '=', fileId).executeTakeFirstOrThrow();

describe('copy-files between stores', () => {
  let dir: string;
  let db: Db;
  let stores: StoreRegistry;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pier-copy-files-'));
    db = await openDatabase({ url: `jdbc:sqlite:${join(dir, 'pier.db')}`, user: '', password: '' });
    await migrateToLatest(db);
    await db.db
      .insertInto('accounts')
      .values({ id: 'acc', login: 'acc', source: 'intern', state: 'Active', password: '', email: null, admin: 0, login_count: 0, last_login: null, created: now })
      .execute();
    stores = await createStoreRegistry(
      {
        defaultStore: 'filesystem',
        stores: {
          database: storeConfig({ type: 'default-database' }),
          filesystem: storeConfig({ type: 'file-system', directory: join(dir, 'files') }),
        },
        copyFiles: { enable: true, source: 'database', target: 'filesystem', parallel: 2 },
      },
      { db: db.db, dialect: db.dialect, chunkSize: 1000, log: capture().log },
    );
  });
  afterAll(async () => {
    await stores?.close?.();
    await db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('copies database → file-system: equal bytes, source untouched, file_meta repointed, counts logged', async () => {
    const source = stores.get('database')!;
    const big = { fileId: randomId(), data: randomBytes(25_000) };
    const small = { fileId: randomId(), data: randomBytes(10) };
    const empty = { fileId: randomId(), data: Buffer.alloc(0) };
    const missing = randomId();
    const other = randomId();
    await addShare(db, 'Trip', [
      { fileId: big.fileId, fileName: 'a.txt', length: big.data.length, store: 'database' },
      { fileId: small.fileId, fileName: 'a.txt', length: small.data.length, store: 'database' },
      { fileId: empty.fileId, fileName: 'empty', length: 0, store: 'database' },
      { fileId: missing, fileName: 'lost.bin', length: 10, store: 'database' },
      { fileId: other, fileName: 'there.bin', length: 3, store: 'filesystem' },
    ]);
    for (const f of [big, small, empty]) await source.append({ fileId: f.fileId, location: '' }, 0, pieces(f.data), Infinity);
    const otherLocation = await stores.get('filesystem')!.create(other, { shareId: 'x', shareName: 'Elsewhere', fileName: 'there.bin' });
    await stores.get('filesystem')!.append({ fileId: other, location: otherLocation }, 0, pieces(Buffer.from('abc')), Infinity);
    await db.db.updateTable('file_meta').set({ location: otherLocation }).where('file_id', '=', other).execute();

    const { log, lines } = capture();
    const counts = await copyFiles(stores, db.db, { enable: true, source: 'database', target: 'filesystem', parallel: 2 }, log);
    expect(counts).toEqual({ copied: 3, existed: 0, missing: 1, failed: 0 });
    expect(lines.find((l) => l.msg.includes('finished'))?.fields).toMatchObject({ copied: 3, existed: 0, missing: 1, failed: 0 });

    for (const f of [big, small, empty]) {
      const m = await meta(db, f.fileId);
      expect(m.store).toBe('filesystem');
      expect(m.location).toMatch(/^Trip\//);
      expect(readFileSync(join(dir, 'files', ...m.location.split('/'))).equals(f.data)).toBe(true);
      // the source keeps its bytes
      expect((await readAll(source.read({ fileId: f.fileId, location: '' }))).equals(f.data)).toBe(true);
    }
    expect([(await meta(db, big.fileId)).location, (await meta(db, small.fileId)).location].sort()).toEqual([
      'Trip/a (1).txt',
      'Trip/a.txt',
    ]);
    expect(await meta(db, missing)).toEqual({ store: 'database', location: '' });
    expect(await meta(db, other)).toEqual({ store: 'filesystem', location: 'Elsewhere/there.bin' });

    // a second run finds nothing new to copy
    const again = await copyFiles(stores, db.db, { enable: true, source: 'database', target: 'filesystem', parallel: 1 }, log);
    expect(again).toEqual({ copied: 0, existed: 0, missing: 1, failed: 0 });
  });

  it('does not copy again what a database target already holds completely ("existed")', async () => {
    const fileId = randomId();
    const data = randomBytes(3000);
    await addShare(db, null, [{ fileId, fileName: 'back.bin', length: data.length, store: 'database' }]);
    const [database, filesystem] = [stores.get('database')!, stores.get('filesystem')!];
    await database.append({ fileId, location: '' }, 0, pieces(data), Infinity);
    await copyFiles(stores, db.db, { enable: true, source: 'database', target: 'filesystem', parallel: 2 }, capture().log);
    const there = await meta(db, fileId);
    expect(there.store).toBe('filesystem');

    const counts = await copyFiles(stores, db.db, { enable: true, source: 'filesystem', target: 'database', parallel: 2 }, capture().log);
    expect(counts?.existed).toBeGreaterThanOrEqual(1);
    expect(counts?.failed).toBe(0);
    expect(await meta(db, fileId)).toEqual({ store: 'database', location: '' });
    expect(await filesystem.size({ fileId, location: there.location })).toBe(data.length);
  });

  it('does nothing when disabled', async () => {
    expect(await copyFiles(stores, db.db, { enable: false, source: 'database', target: 'filesystem', parallel: 2 }, capture().log)).toBeUndefined();
  });
});

describe('copy-files at start-up', () => {
  it('runs before the server answers and logs its counts', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pier-copy-start-'));
    const first = await startServer({ dataDir });
    const jdbc = first.config.backend.jdbc;
    await first.stop();
    const db = await openDatabase(jdbc);
    const fileId = randomId();
    const shareId = randomId();
    try {
      const account = await db.db.selectFrom('accounts').select('id').executeTakeFirstOrThrow();
      await db.db
        .insertInto('shares')
        .values({ id: shareId, account_id: account.id, alias_id: null, name: 'Start', validity: 1, max_views: 1, password: null, description: null, created: now })
        .execute();
      await db.db
        .insertInto('file_meta')
        .values({ file_id: fileId, mimetype: 'text/plain', length: 5, checksum: '', created: now, store: 'database', location: '' })
        .execute();
      await db.db
        .insertInto('share_files')
        .values({ id: randomId(), share_id: shareId, file_id: fileId, filename: 'hello.txt', created: now, real_size: 5 })
        .execute();
      await db.db.insertInto('file_chunks').values({ file_id: fileId, chunk_nr: 0, chunk_len: 5, chunk_data: Buffer.from('hello') }).execute();
    } finally {
      await db.close();
    }
    const second = await startServer({
      dataDir,
      config: {
        backend: {
          files: {
            'default-store': 'filesystem',
            stores: { filesystem: { enabled: true } },
            'copy-files': { enable: true, source: 'database', target: 'filesystem' },
          },
        },
      },
    });
    try {
      const lines = second.logs().trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
      const done = lines.findIndex((l) => l['msg'] === 'Copying files between stores finished');
      expect(lines[done]).toMatchObject({ source: 'database', target: 'filesystem', copied: 1, existed: 0, missing: 0, failed: 0 });
      // before the server listens
      expect(done).toBeLessThan(lines.findIndex((l) => String(l['msg']).startsWith('Pier is listening')));
      expect(readFileSync(join(dataDir, 'files', 'Start', 'hello.txt'), 'utf8')).toBe('hello');
    } finally {
      await second.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
