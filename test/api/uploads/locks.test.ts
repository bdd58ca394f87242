import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../server/common/clock.js';
import { openDatabase, type Db } from '../../../server/db/connect.js';
import { migrateToLatest } from '../../../server/db/migrations/index.js';
import { createUploadLocks } from '../../../server/core/uploads/upload-locks.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { download, fileIdOf, newShare, raw, startUploadServer, type UploadServer } from './support.js';

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

describe('two servers writing one upload at once', () => {
  let a: UploadServer;
  let b: UploadServer;
  beforeAll(async () => {
    a = await startUploadServer('database');
    b = await startUploadServer('database', {}, { dataDir: a.dataDir });
  });
  afterAll(async () => {
    await b.dispose();
    await a.dispose();
  });

  it('never lets both write: one PATCH wins, the other gets 409, and the bytes are the winner’s', async () => {
    const shareId = await newShare(a, a.token);
    const size = 4 * 1024 * 1024;
    const created = await raw(a, 'POST', `/api/v2/sec/upload/${shareId}/files/tus`, {
      'Service-Auth': a.token,
      'Tus-Resumable': '1.0.0',
      'Upload-Length': String(size),
    });
    expect(created.status).toBe(201);
    const path = new URL(created.headers.get('location')!).pathname;
    const bodies = [Buffer.alloc(size, 0x61), Buffer.alloc(size, 0x62)];
    const patch = (s: UploadServer, body: Buffer) =>
      raw(s, 'PATCH', path, { 'Service-Auth': s.token, 'Tus-Resumable': '1.0.0', 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' }, new Uint8Array(body));
    const answers = await Promise.all([patch(a, bodies[0]!), patch(b, bodies[1]!)]);
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([204, 409]);
    const winner = answers[0]!.status === 204 ? bodies[0]! : bodies[1]!;
    const stored = await download(a, a.token, shareId, fileIdOf(path));
    expect(stored.equals(winner)).toBe(true);
  });
});
