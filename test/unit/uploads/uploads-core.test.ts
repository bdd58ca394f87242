import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../server/common/log.js';
import { createChecksumQueue } from '../../../server/core/checksums/checksum.queue.js';
import type { StoreRegistry } from '../../../server/core/stores/binary-store.js';
import { createDatabaseStore } from '../../../server/core/stores/database.store.js';
import { mapStoreError } from '../../../server/core/uploads/domain-checks.js';
import { cleanFileName } from '../../../server/core/uploads/file-name.js';
import { completeFile, insertFile, writeChecksum } from '../../../server/core/uploads/file.repository.js';
import { detectMime } from '../../../server/core/uploads/mime-detect.js';
import { openDatabase, type Db } from '../../../server/db/connect.js';
import { migrateToLatest } from '../../../server/db/migrations/index.js';

let db: Db;
beforeAll(async () => {
  db = await openDatabase({ url: 'jdbc:sqlite::memory:', user: '', password: '' });
  await migrateToLatest(db);
  await db.db
    .insertInto('accounts')
    .values({ id: 'acc', login: 'a', source: 'intern', state: 'Active', password: '', email: null, admin: 0, login_count: 0, last_login: null, created: 0 })
    .execute();
  await db.db
    .insertInto('shares')
    .values({ id: 'share', account_id: 'acc', alias_id: null, name: null, validity: 1, max_views: 1, password: null, description: null, created: 0 })
    .execute();
});
afterAll(async () => db?.close());

const newFile = (n: number, length: number) => ({
  id: `sf${n}`,
  fileId: `f${n}`,
  shareId: 'share',
  filename: 'a.bin',
  mimetype: 'application/octet-stream',
  length,
  store: 'database',
  location: '',
  created: 0,
});
async function* bytes(text: string): AsyncGenerator<Uint8Array> {
  yield Buffer.from(text);
}
const checksumOf = async (fileId: string) =>
  (await db.db.selectFrom('file_meta').select('checksum').where('file_id', '=', fileId).executeTakeFirstOrThrow()).checksum;

describe('file repository', () => {
  // Sharry #1835: the metadata write at completion replaced a checksum the queue had already written with ''.
  it('never replaces a written checksum, whatever completes later', async () => {
    await insertFile(db.db, newFile(1, 3));
    const sum = 'a'.repeat(64);
    expect(await writeChecksum(db.db, 'f1', sum)).toBe(true);
    await completeFile(db.db, { id: 'sf1', fileId: 'f1', length: 3, mimetype: 'text/plain' });
    await completeFile(db.db, { id: 'sf1', fileId: 'f1', length: 3, mimetype: 'text/plain', checksum: 'b'.repeat(64) });
    expect(await writeChecksum(db.db, 'f1', 'c'.repeat(64))).toBe(false);
    expect(await checksumOf('f1')).toBe(sum);
    await expect(writeChecksum(db.db, 'f1', '')).rejects.toThrow();
  });
});

describe('checksum queue', () => {
  it('computes the checksum of complete files, waits when full, skips incomplete ones', async () => {
    const store = createDatabaseStore({ id: 'database', db: db.db, chunkSize: 4 });
    const stores: StoreRegistry = { defaultStore: store, get: (id) => (id === 'database' ? store : undefined), all: () => [store] };
    const files = [10, 11, 12, 13].map((n) => newFile(n, 10));
    for (const f of files) {
      await insertFile(db.db, f);
      await store.append({ fileId: f.fileId, location: '' }, 0, bytes(`0123456789`.slice(0, f === files[3] ? 5 : 10)), 10);
      if (f !== files[3]) await db.db.updateTable('share_files').set({ real_size: 10 }).where('id', '=', f.id).execute();
    }
    const queue = createChecksumQueue({ db: db.db, stores, settings: { enable: true, capacity: 1, parallel: 1 }, log: silentLogger });
    // capacity 1 and not started: the second enqueue waits until a worker takes the first
    await queue.enqueue('f10');
    let second = false;
    const pending = queue.enqueue('f11').then(() => (second = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(second).toBe(false);
    queue.start();
    await pending;
    await queue.enqueue('f13');
    const expected = createHash('sha256').update('0123456789').digest('hex');
    for (let i = 0; i < 100 && (await checksumOf('f12')) === ''; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await checksumOf('f10')).toBe(expected);
    expect(await checksumOf('f11')).toBe(expected);
    expect(await checksumOf('f12')).toBe(expected); // found by the start-up scan
    expect(await checksumOf('f13')).toBe('');
    await queue.stop();
  });
});

// A job of a server that died was computed only when that server started again: the other
// servers never took it over.
describe('checksum jobs of several servers', () => {
  it('takes over a job whose server stopped renewing its lease, and leaves a held one alone', async () => {
    const store = createDatabaseStore({ id: 'database', db: db.db, chunkSize: 4 });
    const stores: StoreRegistry = { defaultStore: store, get: (id) => (id === 'database' ? store : undefined), all: () => [store] };
    for (const n of [20, 21]) {
      const f = newFile(n, 10);
      await insertFile(db.db, f);
      await store.append({ fileId: f.fileId, location: '' }, 0, bytes('0123456789'), 10);
    }
    const settings = { enable: true, capacity: 10, parallel: 1, lease: 200 };
    // a server that claims both jobs before their files complete, then dies (never starts, never renews)
    const dead = createChecksumQueue({ db: db.db, stores, settings, log: silentLogger });
    await dead.claim('f20');
    await dead.claim('f21');
    for (const id of ['sf20', 'sf21']) await db.db.updateTable('share_files').set({ real_size: 10 }).where('id', '=', id).execute();
    // another server, alive, holds f21 and renews its lease
    const other = createChecksumQueue({ db: db.db, stores, settings, log: silentLogger });
    await db.db.deleteFrom('checksum_jobs').where('file_id', '=', 'f21').execute();
    await other.claim('f21');
    const renewing = setInterval(() => void other.claim('f21'), 50);
    const live = createChecksumQueue({ db: db.db, stores, settings, log: silentLogger });
    live.start();
    const expected = createHash('sha256').update('0123456789').digest('hex');
    try {
      for (let i = 0; i < 100 && (await checksumOf('f20')) === ''; i++) await new Promise((r) => setTimeout(r, 20));
      expect(await checksumOf('f20')).toBe(expected);
      await new Promise((r) => setTimeout(r, 500));
      expect(await checksumOf('f21')).toBe('');
      expect(await db.db.selectFrom('checksum_jobs').select('file_id').execute()).toEqual([{ file_id: 'f21' }]);
    } finally {
      clearInterval(renewing);
    }
    // the other server is gone: its lease runs out and the live one takes the job over
    for (let i = 0; i < 100 && (await checksumOf('f21')) === ''; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await checksumOf('f21')).toBe(expected);
    await live.stop();
    expect(await db.db.selectFrom('checksum_jobs').select('file_id').execute()).toEqual([]);
  });
});

describe('MIME detection', () => {
  const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000a49444154789c6300010000050001', 'hex');
  it.each([
    ['content wins over name and declared type', png, 'photo.txt', 'text/plain', 'image/png'],
    ['a container yields to the extension', Buffer.from('504b0304' + '00'.repeat(60), 'hex'), 'book.epub', '', 'application/epub+zip'],
    ['declared type without magic', Buffer.from('a,b\n1,2\n'), 'data', 'text/csv', 'text/csv'],
    ['extension without magic or declared type', Buffer.from('{"a":1}'), 'x.json', 'application/octet-stream', 'application/json'],
    ['text without any hint', Buffer.from('hello\nworld\n'), 'README', '', 'text/plain'],
    ['binary without any hint', Buffer.from([0, 1, 2, 3, 255, 0]), 'blob', '', 'application/octet-stream'],
  ])('%s', async (_what, head, name, declared, expected) => {
    expect(await detectMime(head, name, declared)).toBe(expected);
  });
});

describe('file names and domain checks', () => {
  it.each([
    ['../../etc/passwd', 'passwd'],
    ['C:\\Users\\x\\a.txt', 'a.txt'],
    ['..', 'file'],
    ['', 'file'],
    ['a\u0000b\nc.txt', 'abc.txt'],
    ['Grüße ☃.txt', 'Grüße ☃.txt'],
  ])('%j is kept as %j', (raw, clean) => expect(cleanFileName(raw)).toBe(clean));

  it('keeps names at 255 characters with their extension', () => {
    const cut = cleanFileName(`${'x'.repeat(400)}.tar.gz`);
    expect([...cut].length).toBe(255);
    expect(cut.endsWith('.gz')).toBe(true);
  });

  it('maps a store error whose message (or cause) contains an enabled native text', () => {
    const checks = [
      { enabled: false, native: 'off', message: 'no' },
      { enabled: true, native: 'Virus', message: 'Infected!' },
    ];
    const hit = mapStoreError(new Error('wrapper', { cause: new Error('a VIRUS was found') }), checks) as { code: string; message: string };
    expect([hit.code, hit.message]).toEqual(['domain-check', 'Infected!']);
    const other = new Error('off the rails');
    expect(mapStoreError(other, checks)).toBe(other);
  });
});
