import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../server/common/clock.js';
import { openDatabase, type Db } from '../../../server/db/connect.js';
import { migrateToLatest } from '../../../server/db/migrations/index.js';
import { createUploadLocks } from '../../../server/core/uploads/upload-lock.repository.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { request } from 'node:http';
import { join } from 'node:path';
import { download, eventually, fileIdOf, newShare, raw, startUploadServer, type UploadServer } from './support.js';

describe('upload locks in the database', () => {
  let dir: string;
  let db: Db;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pier-locks-'));
    db = await openDatabase({ url: `jdbc:sqlite:${join(dir, 'locks.db')}`, user: '', password: '' });
    await migrateToLatest(db);
  });
  afterAll(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives a lock to one owner until it is released or expires', async () => {
    const clock = manualClock(1_000_000);
    const locks = createUploadLocks(db.db, clock);
    expect(await locks.tryAcquire('u1', 'node-a', 30_000)).toBe(true);
    expect(await locks.tryAcquire('u1', 'node-b', 30_000)).toBe(false);
    expect(await locks.tryAcquire('u1', 'node-a', 30_000)).toBe(true);
    await locks.release('u1', 'node-b');
    expect(await locks.tryAcquire('u1', 'node-b', 30_000)).toBe(false);
    clock.advance(20_000);
    expect(await locks.renew('u1', 'node-a', 30_000)).toBe(true);
    clock.advance(20_000);
    expect(await locks.tryAcquire('u1', 'node-b', 30_000)).toBe(false);
    clock.advance(11_000);
    // node-a stopped renewing: the lock expired and node-b takes it over
    expect(await locks.tryAcquire('u1', 'node-b', 30_000)).toBe(true);
    expect(await locks.renew('u1', 'node-a', 30_000)).toBe(false);
    await locks.release('u1', 'node-b');
    expect(await locks.tryAcquire('u1', 'node-a', 30_000)).toBe(true);
  });
});

/** A PATCH whose body the test sends piece by piece, to hold a server's lock while it runs. */
const heldPatch = (s: UploadServer, path: string, length: number) => {
  const req = request(s.url + path, {
    method: 'PATCH',
    headers: {
      'Service-Auth': s.token,
      'Tus-Resumable': '1.0.0',
      'Upload-Offset': '0',
      'Content-Type': 'application/offset+octet-stream',
      'Content-Length': String(length),
    },
  });
  const answered = new Promise<number>((resolve, reject) => {
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
  });
  return { write: (b: Buffer) => req.write(b), end: (b: Buffer) => req.end(b), answered };
};

/** The answer of a promise and when it came (ms since the epoch). */
const timed = <T>(p: Promise<T>) => {
  const out: { value?: T; at?: number } = {};
  void p.then((value) => Object.assign(out, { value, at: Date.now() }));
  return out;
};

describe('two servers writing one upload at once', () => {
  let a: UploadServer;
  let b: UploadServer;
  beforeAll(async () => {
    // b waits for a's lock longer than a's first renewal (a third of the 15 s lifetime)
    const config = { limits: { 'upload-lock-wait': '20 seconds' } };
    a = await startUploadServer('database', {}, { config });
    b = await startUploadServer('database', {}, { dataDir: a.dataDir, config });
  });
  afterAll(async () => {
    await b.dispose();
    await a.dispose();
  });

  const createUpload = async (size: number) => {
    const shareId = await newShare(a, a.token);
    const created = await raw(a, 'POST', `/api/v2/sec/upload/${shareId}/files/tus`, {
      'Service-Auth': a.token,
      'Tus-Resumable': '1.0.0',
      'Upload-Length': String(size),
    });
    expect(created.status).toBe(201);
    return { shareId, path: new URL(created.headers.get('location')!).pathname };
  };
  const lockRows = () => a.sql((db) => db.prepare('select id, owner, expires from upload_locks').all() as { id: string; owner: string; expires: number }[]);

  it('makes the second server wait while the first writes, renews the writer’s lock, and keeps the writer’s bytes', async () => {
    const size = 64 * 1024;
    const { shareId, path } = await createUpload(size);
    const mine = Buffer.alloc(size, 0x61);
    const writer = heldPatch(a, path, size);
    writer.write(mine.subarray(0, size / 2));
    // server a holds the upload's lock in the shared database while its request runs
    const [held] = await eventually(() => (lockRows().length === 1 ? lockRows() : undefined));
    expect(held!.id).toBe(`${shareId}/${fileIdOf(path)}`);

    const other = timed(raw(b, 'PATCH', path, { 'Service-Auth': b.token, 'Tus-Resumable': '1.0.0', 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' }, new Uint8Array(Buffer.alloc(size, 0x62))));
    // the holder renews its lock while the request runs: the expiry moves forward, same owner
    // (by its heartbeat, a third of the 15 s lifetime, not by taking it again at once)
    await eventually(() => lockRows()[0]!.expires >= held!.expires + 3000, 15_000);
    expect(lockRows()).toEqual([{ ...held, expires: expect.any(Number) }]);
    // all that time, server b waited for the lock instead of answering
    expect(other.at).toBeUndefined();

    writer.end(mine.subarray(size / 2));
    expect(await writer.answered).toBe(204);
    const finished = Date.now();
    const answer = await eventually(() => other.value);
    // b got the lock after a and found the upload complete
    expect(answer.status).toBe(409);
    expect(other.at!).toBeGreaterThanOrEqual(finished);
    expect((await download(a, a.token, shareId, fileIdOf(path))).equals(mine)).toBe(true);
  });

  it('lets a server write once the lock of a server that died has expired', async () => {
    const size = 1024;
    const { shareId, path } = await createUpload(size);
    // a crashed server left its lock behind, valid for two more seconds
    const expires = Date.now() + 2000;
    a.sql((db) => db.prepare('insert or replace into upload_locks (id, owner, expires) values (?, ?, ?)').run(`${shareId}/${fileIdOf(path)}`, 'crashed-server', expires));
    const bytes = Buffer.alloc(size, 0x63);
    const res = await raw(b, 'PATCH', path, { 'Service-Auth': b.token, 'Tus-Resumable': '1.0.0', 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' }, new Uint8Array(bytes));
    expect(res.status).toBe(204);
    expect(Date.now()).toBeGreaterThanOrEqual(expires);
    expect((await download(a, a.token, shareId, fileIdOf(path))).equals(bytes)).toBe(true);
  });
});
