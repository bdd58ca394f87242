/**
 * The S3 endpoint is down while Pier starts. Pier used to refuse to start; now
 * it starts, answers 502 for the store's files and for uploads to it (leaving
 * nothing half-made), keeps trying in the background with one log line per
 * change of state, and uses the store once the endpoint is up, without a
 * restart.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3rver, type S3rverInstance } from '../../support/s3rver.js';
import { ADMIN, startServer, type TestServer } from '../../support/server.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('an S3 store that is not reachable at start-up', () => {
  let s3: S3rverInstance;
  let dataDir: string;
  let s: TestServer | undefined;
  beforeAll(async () => {
    s3 = await startS3rver();
    dataDir = mkdtempSync(join(tmpdir(), 'pier-s3-start-'));
  });
  afterAll(async () => {
    await s?.stop();
    await s3?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const config = () => ({
    backend: {
      files: {
        'default-store': 's3',
        stores: { s3: { enabled: true, type: 's3', endpoint: s3.endpoint, region: s3.region, 'access-key': s3.accessKey, 'secret-key': s3.secretKey, bucket: 'late' } },
      },
    },
    logging: { format: 'Json', 'minimum-level': 'Warn', levels: { pier: 'Info', 'pier.stores': 'Debug' } },
  });

  const upload = (srv: TestServer, token: string, name: string, bytes: Uint8Array) => {
    const form = new FormData();
    form.append('meta', JSON.stringify({ name, validity: 86_400_000, maxViews: 3 }));
    form.append('file', new Blob([new Uint8Array(bytes)]), `${name}.bin`);
    return fetch(`${srv.url}/api/v2/sec/upload`, { method: 'POST', headers: { 'Service-Auth': token }, body: form });
  };
  const download = (srv: TestServer, token: string, shareId: string, fid: string) =>
    fetch(`${srv.url}/api/v2/sec/share/${shareId}/file/${fid}`, { headers: { 'Service-Auth': token } });
  const count = (table: 'shares' | 'share_files' | 'file_meta' | 'pending_uploads'): number => {
    const db = new Database(join(dataDir, 'pier.db'), { readonly: true });
    try {
      return (db.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
    } finally {
      db.close();
    }
  };
  const storeLines = (srv: TestServer) =>
    srv
      .logs()
      .split('\n')
      .filter((l) => l.includes('"logger":"pier.stores"'))
      .map((l) => JSON.parse(l) as { level: string; store: string; msg: string })
      .filter((l) => l.store === 's3');

  it('starts, answers 502 while the endpoint is down, and uses the store once it is up', async () => {
    // a file stored in the bucket by an earlier run
    const earlier = await startServer({ config: config(), dataDir });
    const earlierToken = await earlier.login(ADMIN.login, ADMIN.password);
    const bytes = randomBytes(200_000);
    const first = await upload(earlier, earlierToken, 'earlier', bytes);
    expect(first.status).toBe(200);
    const { id: shareId } = (await first.json()) as { id: string };
    const detail = await earlier.request<{ files: Array<{ id: string }> }>('GET', `/api/v2/sec/share/${shareId}`, undefined, { token: earlierToken });
    const fid = detail.body.files[0]!.id;
    const halfMade = await earlier.request<{ id: string }>('POST', '/api/v2/sec/upload/new', { validity: 3_600_000, maxViews: 3 }, { token: earlierToken });
    await earlier.stop();
    // a multipart request of a killed server left a share and a file in the bucket to remove at start
    const db = new Database(join(dataDir, 'pier.db'));
    db.prepare(`insert into pending_uploads (id, request_id, kind, ref_id, store, location, expires) values ('m1', 'r1', 'file', 'abandoned', 's3', '', 0)`).run();
    db.prepare(`insert into pending_uploads (id, request_id, kind, ref_id, store, location, expires) values ('m2', 'r1', 'share', ?, '', '', 0)`).run(halfMade.body.id);
    db.close();

    await s3.pause();
    const startedAt = Date.now();
    s = await startServer({ config: config(), dataDir });
    const token = await s.login(ADMIN.login, ADMIN.password);
    expect(s.logs()).toContain('Could not remove interrupted uploads yet');
    // the half-made share is gone at once; only the file in the bucket waits for the store
    expect((await s.request('GET', `/api/v2/sec/share/${halfMade.body.id}`, undefined, { token })).status).toBe(404);
    expect(count('pending_uploads')).toBe(1);

    const failed = await download(s, token, shareId, fid);
    expect(failed.status).toBe(502);
    expect(await failed.json()).toEqual({ success: false, message: expect.stringMatching(/not reachable/), code: 'error.unavailable' });

    // multipart is all or nothing: neither the share nor its file remain
    const before = { shares: count('shares'), files: count('share_files'), meta: count('file_meta') };
    const refused = await upload(s, token, 'during', randomBytes(100_000));
    expect(refused.status).toBe(502);
    expect(await refused.json()).toEqual({ success: false, message: expect.stringMatching(/not reachable/), code: 'error.unavailable' });
    expect({ shares: count('shares'), files: count('share_files'), meta: count('file_meta') }).toEqual(before);

    // tus creation stores no file either
    const empty = await s.request<{ id: string }>('POST', '/api/v2/sec/upload/new', { validity: 3_600_000, maxViews: 3 }, { token });
    const tus = await fetch(`${s.url}/api/v2/sec/upload/${empty.body.id}/files/tus`, {
      method: 'POST',
      headers: { 'Service-Auth': token, 'Tus-Resumable': '1.0.0', 'Upload-Length': '5', 'Upload-Metadata': `filename ${Buffer.from('t.txt').toString('base64')}` },
    });
    expect(tus.status).toBe(502);
    expect({ files: count('share_files'), meta: count('file_meta') }).toEqual({ files: before.files, meta: before.meta });

    // the retries 1 s and 3 s after start fail without a warning each
    await sleep(Math.max(0, startedAt + 3_500 - Date.now()));
    await s3.resume();
    let again = await download(s, token, shareId, fid);
    for (const deadline = Date.now() + 20_000; again.status === 502 && Date.now() < deadline; ) {
      await again.body?.cancel();
      await sleep(250);
      again = await download(s, token, shareId, fid);
    }
    expect(again.status).toBe(200);
    expect(Buffer.from(await again.arrayBuffer()).equals(bytes)).toBe(true);
    expect((await upload(s, token, 'after', randomBytes(50_000))).status).toBe(200);
    // with the store back, the next recovery removes the file and forgets the request
    await s.runCleanup();
    expect(count('pending_uploads')).toBe(0);

    const lines = storeLines(s);
    expect(lines.filter((l) => l.level === 'warn').map((l) => l.msg)).toEqual(['Store not reachable; retrying in the background']);
    expect(lines.filter((l) => l.level === 'debug').length).toBeGreaterThanOrEqual(2);
    expect(lines.filter((l) => l.level === 'info').map((l) => l.msg)).toEqual(['Store ready']);
  }, 60_000);

  it('stops copy-files at start-up while the target is not reachable, and the next start copies the files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pier-s3-copy-'));
    const config = (copy: boolean) => ({
      backend: {
        files: {
          'default-store': 'database',
          stores: {
            database: { enabled: true, type: 'default-database' },
            s3: { enabled: true, type: 's3', endpoint: s3.endpoint, region: s3.region, 'access-key': s3.accessKey, 'secret-key': s3.secretKey, bucket: 'copy-target' },
          },
          'copy-files': { enable: copy, source: 'database', target: 's3', parallel: 1 },
        },
      },
    });
    const storesOfFiles = () => {
      const db = new Database(join(dir, 'pier.db'), { readonly: true });
      try {
        return (db.prepare('select store from file_meta').all() as Array<{ store: string }>).map((r) => r.store);
      } finally {
        db.close();
      }
    };
    try {
      const a = await startServer({ config: config(false), dataDir: dir });
      const aToken = await a.login(ADMIN.login, ADMIN.password);
      const bytes = [randomBytes(10_000), randomBytes(20_000), randomBytes(30_000)];
      const shareIds: string[] = [];
      for (const [i, b] of bytes.entries()) {
        const r = await upload(a, aToken, `copy${i}`, b);
        expect(r.status).toBe(200);
        shareIds.push(((await r.json()) as { id: string }).id);
      }
      await a.stop();

      await s3.pause();
      const b = await startServer({ config: config(true), dataDir: dir });
      try {
        expect(b.logs().split('Copying files between stores stopped: a store is not reachable').length - 1).toBe(1);
        expect(b.logs()).not.toContain('a file could not be copied');
        expect(storesOfFiles()).toEqual(['database', 'database', 'database']);
      } finally {
        await b.stop();
      }

      await s3.resume();
      const c = await startServer({ config: config(true), dataDir: dir });
      try {
        expect(storesOfFiles()).toEqual(['s3', 's3', 's3']);
        const token = await c.login(ADMIN.login, ADMIN.password);
        for (const [i, shareId] of shareIds.entries()) {
          const detail = await c.request<{ files: Array<{ id: string }> }>('GET', `/api/v2/sec/share/${shareId}`, undefined, { token });
          const r = await download(c, token, shareId, detail.body.files[0]!.id);
          expect(Buffer.from(await r.arrayBuffer()).equals(bytes[i]!)).toBe(true);
        }
      } finally {
        await c.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
