/**
 * The server killed with SIGKILL in the middle of an upload: a tus upload
 * resumes from the stored offset with the right bytes, on every store; a
 * multipart upload leaves no half-made share or file after the restart.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, rmSync, statSync, mkdtempSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../server/common/clock.js';
import { openDatabase } from '../../../server/db/connect.js';
import { startNodeProcess, type NodeProcess } from '../../support/node-process.js';
import { startS3rver, type S3rverInstance } from '../../support/s3rver.js';
import { startServer, type Json } from '../../support/server.js';

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** Resolves once `fn` returns true on the server's SQLite file (polled; fails after 20 s). */
const untilInDatabase = async (dir: string, fn: (db: Database.Database) => boolean): Promise<void> => {
  const db = new Database(join(dir, 'pier.db'), { readonly: true });
  try {
    for (const end = Date.now() + 20_000; !fn(db); ) {
      if (Date.now() > end) throw new Error('condition not met in the database in time');
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    db.close();
  }
};
const lockCount = (db: Database.Database) => (db.prepare('select count(*) as n from upload_locks').get() as { n: number }).n;

let s3: S3rverInstance;
beforeAll(async () => {
  s3 = await startS3rver();
});
afterAll(() => s3?.stop());

const storeConfig = (kind: string, dir: string): Json => ({
  'rate-limit': { enabled: false },
  player: { enabled: false },
  backend: {
    share: { 'chunk-size': '256K' },
    files:
      kind === 'database'
        ? { 'default-store': 'database' }
        : kind === 'file-system'
          ? { 'default-store': 'filesystem', stores: { filesystem: { enabled: true, directory: join(dir, 'received') } } }
          : {
              'default-store': 's3',
              stores: { s3: { enabled: true, type: 's3', endpoint: s3.endpoint, region: s3.region, 'access-key': s3.accessKey, 'secret-key': s3.secretKey, bucket: `crash-${kind}-${Date.now()}` } },
            },
  },
});

const adminToken = async (url: string, password: string) =>
  ((await (await fetch(`${url}/api/v2/open/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ account: 'admin', password }) })).json()) as { token: string }).token;

/** Sends `head` of a request body, then leaves the request hanging (the server gets killed meanwhile). */
const startHangingRequest = (url: string, method: string, headers: Record<string, string>, head: Uint8Array) => {
  const req = request(url, { method, headers });
  req.on('error', () => undefined);
  req.write(head);
  return req;
};

describe.each(['database', 'file-system', 's3'])('SIGKILL in the middle of a tus upload (%s store)', (kind) => {
  it('resumes from the stored offset after the restart, with the right bytes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pier-crash-'));
    const config = storeConfig(kind, dir);
    let node: NodeProcess | undefined = await startNodeProcess(config, dir);
    try {
      const password = /password: +(\S+)/.exec(node.output())![1]!;
      let token = await adminToken(node.url, password);
      const share = (await (await fetch(`${node.url}/api/v2/sec/upload/new`, {
        method: 'POST',
        headers: { 'Service-Auth': token, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'crash', validity: 86_400_000, maxViews: 5, description: null, password: null }),
      })).json()) as { id: string };
      const bytes = randomBytes(3 * 1024 * 1024 + 777);
      const created = await fetch(`${node.url}/api/v2/sec/upload/${share.id}/files/tus`, {
        method: 'POST',
        headers: { 'Service-Auth': token, 'Tus-Resumable': '1.0.0', 'Upload-Length': String(bytes.length) },
      });
      const path = new URL(created.headers.get('location')!).pathname;
      // a creation takes no database lock (nobody knows the new id yet): none is held before the PATCH
      await untilInDatabase(dir, (db) => lockCount(db) === 0);
      const sent = 1024 * 1024 + 100 * 1024 + 5;
      startHangingRequest(`${node.url}${path}`, 'PATCH', {
        'Service-Auth': token,
        'Tus-Resumable': '1.0.0',
        'Upload-Offset': '0',
        'Content-Type': 'application/offset+octet-stream',
        'Content-Length': String(bytes.length),
      }, bytes.subarray(0, sent));
      // the server is writing the upload: its PATCH holds the upload's lock
      await untilInDatabase(dir, (db) => lockCount(db) === 1);
      await node.kill('SIGKILL');

      node = await startNodeProcess(config, dir);
      token = await adminToken(node.url, password);
      const head = await fetch(`${node.url}${path}`, { method: 'HEAD', headers: { 'Service-Auth': token, 'Tus-Resumable': '1.0.0' } });
      expect(head.status).toBe(200);
      const offset = Number(head.headers.get('upload-offset'));
      expect(offset).toBeGreaterThanOrEqual(0);
      expect(offset).toBeLessThanOrEqual(sent);
      const rest = await fetch(`${node.url}${path}`, {
        method: 'PATCH',
        headers: { 'Service-Auth': token, 'Tus-Resumable': '1.0.0', 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' },
        body: new Uint8Array(bytes.subarray(offset)),
      });
      expect(rest.status).toBe(204);
      const fid = path.split('/').pop()!;
      const back = new Uint8Array(await (await fetch(`${node.url}/api/v2/sec/share/${share.id}/file/${fid}`, { headers: { 'Service-Auth': token } })).arrayBuffer());
      expect(sha(back)).toBe(sha(bytes));
    } finally {
      await node?.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});

describe.each(['database', 'file-system'])('SIGKILL in the middle of a multipart upload (%s store)', (kind) => {
  it('leaves no share or file behind once the restarted server sees the request is dead', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pier-crash-mp-'));
    const config = storeConfig(kind, dir);
    const node = await startNodeProcess(config, dir);
    try {
      const password = /password: +(\S+)/.exec(node.output())![1]!;
      const token = await adminToken(node.url, password);
      const boundary = 'pierboundary42';
      const head = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="meta"\r\nContent-Type: application/json\r\n\r\n`),
        Buffer.from(JSON.stringify({ name: 'half', validity: 86_400_000, maxViews: 5 })),
        Buffer.from(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="done.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`),
        randomBytes(300_000),
        Buffer.from(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="half.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`),
        randomBytes(700_000),
      ]);
      startHangingRequest(`${node.url}/api/v2/sec/upload`, 'POST', {
        'Service-Auth': token,
        'Content-Type': `multipart/form-data; boundary=${boundary}`,
        'Content-Length': String(head.length + 5_000_000),
      }, head);
      // the request has made its share and the first file
      await untilInDatabase(dir, (db) => (db.prepare('select (select count(*) from shares) as s, (select count(*) from file_meta) as f').get() as { s: number; f: number }).f >= 1);
      await node.kill('SIGKILL');

      // before the restart: the request left a share and files behind
      const db = await openDatabase({ url: `jdbc:sqlite:${join(dir, 'pier.db')}`, user: '', password: '' });
      try {
        expect((await db.db.selectFrom('shares').select('id').execute()).length).toBe(1);
        expect((await db.db.selectFrom('file_meta').select('file_id').execute()).length).toBeGreaterThanOrEqual(1);
      } finally {
        await db.close();
      }

      // restarted after the markers expired (a later start, or another server's periodic check)
      const clock = manualClock(Date.now() + 2 * 60_000);
      const again = await startServer({ dataDir: dir, clock, config, initialAdmin: { kind: 'none' } });
      try {
        const t = await again.login('admin', password);
        const list = await again.request<{ items: unknown[] }>('GET', '/api/v2/sec/share/search', undefined, { token: t });
        expect(list.body.items).toEqual([]);
        const after = await openDatabase({ url: `jdbc:sqlite:${join(dir, 'pier.db')}`, user: '', password: '' });
        try {
          expect(await after.db.selectFrom('file_meta').select('file_id').execute()).toEqual([]);
          expect(await after.db.selectFrom('file_chunks').select('file_id').execute()).toEqual([]);
          expect(await after.db.selectFrom('pending_uploads').select('id').execute()).toEqual([]);
        } finally {
          await after.close();
        }
        if (kind === 'file-system') {
          const received = join(dir, 'received');
          const files = readdirSync(received, { recursive: true }).map(String).filter((f) => statSync(join(received, f)).isFile());
          expect(files).toEqual([]);
        }
      } finally {
        await again.stop();
      }
    } finally {
      await node.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
