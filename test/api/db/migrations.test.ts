import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Migrator, sql, type Insertable } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseConfig, type Db } from '../../../server/db/connect.js';
import { migrateToLatest, migrations } from '../../../server/db/migrations/index.js';
import type { Database } from '../../../server/db/schema.js';
import { startMariadb } from '../../support/mariadb.js';
import { startPostgres } from '../../support/postgres.js';

const TABLES = [
  'accounts', 'invitations', 'aliases', 'alias_members', 'shares',
  'publish_shares', 'share_files', 'file_meta', 'file_chunks', 'upload_locks', 'pending_uploads',
  'sent_mails', 'guest_notifications', 'ended_sessions', 'retired_alias_ids', 'rate_limit_hits', 'checksum_jobs',
  'rooms', 'room_guests', 'room_songs', 'share_activity',
];
const ALL_MIGRATIONS = ['0001-initial', '0002-pending-uploads', '0003-session-generation', '0004-mail-limits', '0005-upload-link-options', '0006-auth-hardening', '0007-checksum-jobs', '0008-rooms', '0009-file-crc', '0010-share-activity'];

interface Server {
  /** a fresh, empty database */
  fresh(name: string): Promise<DatabaseConfig>;
  stop(): Promise<void>;
}

async function sqliteServer(): Promise<Server> {
  const dir = mkdtempSync(join(tmpdir(), 'pier-sqlite-test-'));
  return {
    fresh: (name) => Promise.resolve({ url: `jdbc:sqlite:${join(dir, name, 'pier.db')}`, user: '', password: '' }),
    stop: () => Promise.resolve(rmSync(dir, { recursive: true, force: true })),
  };
}

const networkServer = async (start: typeof startPostgres): Promise<Server> => {
  const instance = await start();
  return { fresh: (name) => instance.createDatabase(name), stop: () => instance.stop() };
};

const childScript = fileURLToPath(new URL('./migrate-child.ts', import.meta.url));

/** Runs the migrations in a separate Node process. */
function migrateInChild(config: DatabaseConfig): Promise<string[]> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', childScript, config.url, config.user, config.password],
      { encoding: 'utf8', timeout: 60_000 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${error.message}\n${stderr}`));
        else resolve(JSON.parse(stdout) as string[]);
      },
    );
  });
}

const now = Date.now();

describe.each([
  ['SQLite', sqliteServer],
  ['PostgreSQL', () => networkServer(startPostgres)],
  ['MariaDB', () => networkServer(startMariadb)],
] as const)('migrations on %s', (name, startServer) => {
  let server: Server;
  let db: Db;

  beforeAll(async () => {
    server = await startServer();
    db = await openDatabase(await server.fresh('main_test'));
  });
  afterAll(async () => {
    await db?.close();
    await server?.stop();
  });

  it('applies every migration, creating every table', async () => {
    expect(await migrateToLatest(db)).toEqual(ALL_MIGRATIONS);
    const tables = (await db.db.introspection.getTables()).map((t) => t.name);
    expect(tables.sort()).toEqual([...TABLES].sort());
  });

  it('does nothing when migrated again', async () => {
    expect(await migrateToLatest(db)).toEqual([]);
    expect(await migrateToLatest(db)).toEqual([]);
  });

  if (name === 'MariaDB') it('creates tables as InnoDB with utf8mb4 and a binary collation', async () => {
    const { rows } = await sql<{ engine: string; collation: string }>`
      select engine as engine, table_collation as collation from information_schema.tables
      where table_schema = database() and table_name not like 'kysely%'`.execute(db.db);
    expect(rows).toHaveLength(TABLES.length);
    for (const row of rows) expect(row).toEqual({ engine: 'InnoDB', collation: 'utf8mb4_bin' });
  });

  it('round-trips accounts, shares, BIGINT timestamps and a 600 KiB blob', async () => {
    const d = db.db;
    await d.insertInto('accounts').values(account('acc1', 'alice')).execute();
    await d.insertInto('aliases').values(alias('alias1', 'acc1')).execute();
    const validity = 5_000_000_000; // above 2^32 ms
    await d
      .insertInto('shares')
      .values({ ...share('share1', 'acc1', 'alias1'), validity, description: 'x'.repeat(70_000) })
      .execute();
    const row = await d.selectFrom('shares').selectAll().where('id', '=', 'share1').executeTakeFirstOrThrow();
    expect(row.created).toBe(now);
    expect(typeof row.created).toBe('number');
    expect(row.validity).toBe(validity);
    expect(row.alias_id).toBe('alias1');
    expect(row.description).toHaveLength(70_000);

    const bytes = randomBytes(600 * 1024);
    const filename = 'Ünïcødé 🎵 photo.jpg';
    await d.insertInto('file_meta').values(fileMeta('file1', bytes.length)).execute();
    await d.insertInto('share_files').values({ ...shareFile('sf1', 'share1', 'file1'), filename }).execute();
    await d
      .insertInto('file_chunks')
      .values({ file_id: 'file1', chunk_nr: 0, chunk_len: bytes.length, chunk_data: bytes })
      .execute();
    const chunk = await d.selectFrom('file_chunks').selectAll().executeTakeFirstOrThrow();
    expect(chunk.chunk_data).toBeInstanceOf(Uint8Array);
    expect(Buffer.compare(Buffer.from(chunk.chunk_data), bytes)).toBe(0);
    const sf = await d.selectFrom('share_files').select(['filename', 'real_size']).executeTakeFirstOrThrow();
    expect(sf).toEqual({ filename, real_size: 0 });
  });

  it('returns count(*) and sum() of BIGINTs as JS numbers', async () => {
    const d = db.db;
    await d
      .insertInto('file_meta')
      .values([3, 4].map((n) => ({ ...fileMeta(`big${n}`, n * 1_000_000_000), checksum: 'c' })))
      .execute();
    const row = await d
      .selectFrom('file_meta')
      .select((eb) => [
        eb.fn.countAll<number>().as('n'),
        eb.fn.sum<number>('length').as('total'),
        eb.fn.max('created').as('latest'),
      ])
      .where('checksum', '=', 'c')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ n: 2, total: 7_000_000_000, latest: now });
  });

  it('keeps the CRC-32 of a file over the whole unsigned range, null when unknown', async () => {
    const d = db.db;
    await d
      .insertInto('file_meta')
      .values([
        { ...fileMeta('crc-max', 1), crc32: 0xffffffff },
        { ...fileMeta('crc-none', 1) },
      ])
      .execute();
    const rows = await d.selectFrom('file_meta').select(['file_id', 'crc32']).where('file_id', 'in', ['crc-max', 'crc-none']).orderBy('file_id').execute();
    expect(rows.map((r) => ({ ...r, crc32: r.crc32 === null ? null : Number(r.crc32) }))).toEqual([
      { file_id: 'crc-max', crc32: 0xffffffff },
      { file_id: 'crc-none', crc32: null },
    ]);
  });

  it('rejects a second account with the same login', async () => {
    await expect(db.db.insertInto('accounts').values(account('acc2', 'alice')).execute()).rejects.toThrow();
    await db.db.insertInto('accounts').values(account('acc2', 'bob')).execute();
  });

  it('compares ids case-sensitively', async () => {
    await db.db
      .insertInto('invitations')
      .values([
        { id: 'AbC', created: now },
        { id: 'abc', created: now },
      ])
      .execute();
    const rows = await db.db.selectFrom('invitations').select('id').where('id', '=', 'abc').execute();
    expect(rows).toEqual([{ id: 'abc' }]);
  });

  it('enforces unique alias members, unique publications and existing owners', async () => {
    const d = db.db;
    const member = { alias_id: 'alias1', account_id: 'acc2' };
    await d.insertInto('alias_members').values({ id: 'm1', ...member }).execute();
    await expect(d.insertInto('alias_members').values({ id: 'm2', ...member }).execute()).rejects.toThrow();
    await d.insertInto('publish_shares').values(publication('pub1', 'share1')).execute();
    await expect(d.insertInto('publish_shares').values(publication('pub2', 'share1')).execute()).rejects.toThrow();
    await expect(d.insertInto('shares').values(share('s-x', 'nobody', null)).execute()).rejects.toThrow();
  });

  it('sets shares.alias_id to null when the alias is deleted', async () => {
    await db.db.deleteFrom('aliases').where('id', '=', 'alias1').execute();
    const row = await db.db.selectFrom('shares').select('alias_id').executeTakeFirstOrThrow();
    expect(row.alias_id).toBeNull();
    expect(await count('alias_members')).toBe(0);
  });

  it('deletes shares, their publication and files with their account', async () => {
    await db.db.deleteFrom('accounts').where('id', '=', 'acc1').execute();
    expect(await count('shares')).toBe(0);
    expect(await count('publish_shares')).toBe(0);
    expect(await count('share_files')).toBe(0);
    expect(await count('accounts')).toBe(1);
    // file_meta outlives the share (the cleanup job removes orphans); deleting it cascades to share_files
    await db.db.insertInto('shares').values(share('share2', 'acc2', null)).execute();
    await db.db.insertInto('share_files').values(shareFile('sf2', 'share2', 'file1')).execute();
    await db.db.deleteFrom('file_meta').where('file_id', '=', 'file1').execute();
    expect(await count('share_files')).toBe(0);
  });

  it('gives accounts a session generation, 0 for accounts that existed before 0003, bumped in place', async () => {
    const config = await server.fresh('upgrade_test');
    const older = await openDatabase(config);
    try {
      const all = Object.fromEntries(Object.entries(migrations).map(([n, make]) => [n, make(older.dialect)]));
      const migrator = new Migrator({ db: older.db, provider: { getMigrations: () => Promise.resolve(all) } });
      expect((await migrator.migrateTo('0002-pending-uploads')).error).toBeUndefined();
      // a row as 0001 knows it, without session_gen
      await older.db.insertInto('accounts').values(account('old1', 'olduser')).execute();
      expect(await migrateToLatest(older)).toEqual(Object.keys(migrations).slice(2));
      const gen = () => older.db.selectFrom('accounts').select('session_gen').where('id', '=', 'old1').executeTakeFirstOrThrow();
      expect(await gen()).toEqual({ session_gen: 0 });
      await older.db.updateTable('accounts').set((eb) => ({ session_gen: eb('session_gen', '+', 1) })).where('id', '=', 'old1').execute();
      expect(await gen()).toEqual({ session_gen: 1 });
    } finally {
      await older.close();
    }
  });

  it('gives upload links a message, a size limit and an expiry, and guest shares a sender; rows from before 0005 have none', async () => {
    const config = await server.fresh('link_options_test');
    const older = await openDatabase(config);
    try {
      const all = Object.fromEntries(Object.entries(migrations).map(([n, make]) => [n, make(older.dialect)]));
      const migrator = new Migrator({ db: older.db, provider: { getMigrations: () => Promise.resolve(all) } });
      expect((await migrator.migrateTo('0004-mail-limits')).error).toBeUndefined();
      await older.db.insertInto('accounts').values(account('old1', 'olduser')).execute();
      await older.db.insertInto('aliases').values(alias('old-alias', 'old1')).execute();
      await older.db.insertInto('shares').values(share('old-share', 'old1', 'old-alias')).execute();
      expect(await migrateToLatest(older)).toEqual(Object.keys(migrations).slice(4));

      const linkOf = () => older.db.selectFrom('aliases').select(['message', 'max_size', 'expires']).where('id', '=', 'old-alias').executeTakeFirstOrThrow();
      const guestOf = () => older.db.selectFrom('shares').select(['sender', 'auto_name']).where('id', '=', 'old-share').executeTakeFirstOrThrow();
      expect(await linkOf()).toEqual({ message: null, max_size: null, expires: null });
      expect(await guestOf()).toEqual({ sender: null, auto_name: null });

      const message = 'Bitte nur Fotos vom Fest 🎉\n'.repeat(74).slice(0, 2000);
      await older.db.updateTable('aliases').set({ message, max_size: 5_000_000_000, expires: now + 1 }).where('id', '=', 'old-alias').execute();
      await older.db.updateTable('shares').set({ sender: 'Zoë 👩‍👩‍👧', auto_name: 'From Zoë 👩‍👩‍👧 · 3 photos · 23 Nov' }).where('id', '=', 'old-share').execute();
      expect(await linkOf()).toEqual({ message, max_size: 5_000_000_000, expires: now + 1 });
      expect(await guestOf()).toEqual({ sender: 'Zoë 👩‍👩‍👧', auto_name: 'From Zoë 👩‍👩‍👧 · 3 photos · 23 Nov' });
    } finally {
      await older.close();
    }
  });

  it('adds ended sessions, retired link ids, rate-limit hits and guest keys; rows from before 0006 have none', async () => {
    const config = await server.fresh('auth_hardening_test');
    const older = await openDatabase(config);
    try {
      const all = Object.fromEntries(Object.entries(migrations).map(([n, make]) => [n, make(older.dialect)]));
      const migrator = new Migrator({ db: older.db, provider: { getMigrations: () => Promise.resolve(all) } });
      expect((await migrator.migrateTo('0005-upload-link-options')).error).toBeUndefined();
      await older.db.insertInto('accounts').values(account('old6', 'olduser6')).execute();
      await older.db.insertInto('aliases').values(alias('old-alias6', 'old6')).execute();
      await older.db.insertInto('shares').values(share('old-share6', 'old6', 'old-alias6')).execute();
      expect((await migrateToLatest(older))[0]).toBe('0006-auth-hardening');
      const guestKey = () => older.db.selectFrom('shares').select('guest_key').where('id', '=', 'old-share6').executeTakeFirstOrThrow();
      expect(await guestKey()).toEqual({ guest_key: null });
      await older.db.updateTable('shares').set({ guest_key: 'k'.repeat(43) }).where('id', '=', 'old-share6').execute();
      expect(await guestKey()).toEqual({ guest_key: 'k'.repeat(43) });
      await older.db.insertInto('ended_sessions').values({ id: 'sid-1', account_id: 'old6', expires: now + 1 }).execute();
      await older.db.insertInto('retired_alias_ids').values({ id: 'gone-alias', account_id: 'old6', retired: now }).execute();
      await older.db.insertInto('rate_limit_hits').values({ id: 'h1', hit_key: 'x'.repeat(43), at: now, expires: now + 60_000 }).execute();
      // an account's ended sessions go with it; its retired link ids stay
      await older.db.deleteFrom('shares').where('account_id', '=', 'old6').execute();
      await older.db.deleteFrom('aliases').where('account_id', '=', 'old6').execute();
      await older.db.deleteFrom('accounts').where('id', '=', 'old6').execute();
      expect(await older.db.selectFrom('ended_sessions').selectAll().execute()).toEqual([]);
      expect(await older.db.selectFrom('retired_alias_ids').select('id').execute()).toEqual([{ id: 'gone-alias' }]);
    } finally {
      await older.close();
    }
  });

  it('lets two processes migrate one fresh database at the same time', async () => {
    const config = await server.fresh('race_test');
    const [a, b] = await Promise.all([migrateInChild(config), migrateInChild(config)]);
    expect([...a, ...b]).toEqual(ALL_MIGRATIONS);
    const check = await openDatabase(config);
    try {
      expect(await migrateToLatest(check)).toEqual([]);
    } finally {
      await check.close();
    }
  });

  it('reports a failing migration with a clear error', async () => {
    const config = await server.fresh('broken_test');
    const broken = await openDatabase(config);
    try {
      await broken.db.schema.createTable('upload_locks').addColumn('id', 'integer').execute();
      await expect(migrateToLatest(broken)).rejects.toThrow(
        /Database migration failed \(\w+\) in migration 0001-initial: /,
      );
      if (broken.dialect !== 'mysql') {
        // SQLite and PostgreSQL roll the whole migration back; MariaDB cannot undo DDL
        const tables = (await broken.db.introspection.getTables()).map((t) => t.name);
        expect(tables).toEqual(['upload_locks']);
      }
    } finally {
      await broken.close();
    }
  });

  async function count(table: keyof Database): Promise<number> {
    const query = db.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n'));
    return (await query.executeTakeFirstOrThrow()).n;
  }
});

// Rows with every column, so each test states only what it is about.
type Row<T extends keyof Database> = Insertable<Database[T]>;

const account = (id: string, login: string): Row<'accounts'> => ({
  id, login, source: 'intern', state: 'Active', password: '', email: null,
  admin: 0, login_count: 0, last_login: now + 1, created: now,
});

const alias = (id: string, accountId: string): Row<'aliases'> => ({
  id, account_id: accountId, name: 'Drop box', validity: 7 * 86_400_000, enabled: 1, created: now,
});

const share = (id: string, accountId: string, aliasId: string | null): Row<'shares'> => ({
  id, account_id: accountId, alias_id: aliasId, name: null, validity: 86_400_000, max_views: 30,
  password: null, description: null, created: now,
});

const publication = (id: string, shareId: string): Row<'publish_shares'> => ({
  id, share_id: shareId, enabled: 1, views: 0, last_access: null,
  publish_date: now, publish_until: now + 5_000_000_000, created: now,
});

const fileMeta = (fileId: string, length: number): Row<'file_meta'> => ({
  file_id: fileId, mimetype: 'image/jpeg', length, checksum: '', created: now, store: 'database', location: '',
});

const shareFile = (id: string, shareId: string, fileId: string): Row<'share_files'> => ({
  id, share_id: shareId, file_id: fileId, filename: null, created: now, real_size: 0,
});
