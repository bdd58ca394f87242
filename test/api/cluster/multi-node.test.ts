/**
 * Several Pier servers behind one address: two server processes sharing one
 * PostgreSQL database, one S3 bucket (s3rver) and one secret serve the same
 * users — an upload's chunks may land on either node, a share made on one is
 * downloadable from the other, two nodes never write one upload at once, and
 * cleanup started everywhere at once deletes each item once.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../server/common/clock.js';
import { startNodeProcess, type NodeProcess } from '../../support/node-process.js';
import { startPostgres } from '../../support/postgres.js';
import { startS3rver, type S3rverInstance } from '../../support/s3rver.js';
import { startServer, type Json, type TestServer } from '../../support/server.js';
import { eventually, type DatabaseInstance } from '../../support/system.js';

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

describe('two nodes on PostgreSQL and S3', () => {
  let pg: DatabaseInstance;
  let s3: S3rverInstance;
  let a: NodeProcess;
  let b: NodeProcess;
  let token: string;
  let shared: Json;

  beforeAll(async () => {
    [pg, s3] = await Promise.all([startPostgres('pier_cluster'), startS3rver()]);
    shared = {
      'rate-limit': { enabled: false },
      player: { enabled: false },
      backend: {
        auth: { 'server-secret': `hex:${randomBytes(32).toString('hex')}` },
        jdbc: { url: pg.url, user: pg.user, password: pg.password },
        share: { 'chunk-size': '256K' },
        // a checksum job of a node that died is taken over within about a second
        'compute-checksum': { lease: '1 second' },
        files: {
          'default-store': 's3',
          stores: {
            s3: { enabled: true, type: 's3', endpoint: s3.endpoint, region: s3.region, 'access-key': s3.accessKey, 'secret-key': s3.secretKey, bucket: 'pier-cluster' },
          },
        },
      },
    };
    a = await startNodeProcess(shared);
    b = await startNodeProcess(shared);
    const password = /password: +(\S+)/.exec(a.output())![1]!;
    const login = await fetch(`${b.url}/api/v2/open/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account: 'admin', password }),
    });
    token = ((await login.json()) as { token: string }).token;
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await Promise.all([pg?.stop(), s3?.stop()]);
  });

  const json = async (node: NodeProcess, method: string, path: string, body?: unknown) => {
    const res = await fetch(node.url + path, {
      method,
      headers: { 'Service-Auth': token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (await res.json()) as Record<string, unknown>;
  };
  const newShare = async (node: NodeProcess) =>
    String((await json(node, 'POST', '/api/v2/sec/upload/new', { name: 'cluster', validity: 86_400_000, maxViews: 10, description: null, password: null }))['id']);
  const createUpload = async (node: NodeProcess, shareId: string, length: number): Promise<string> => {
    const res = await fetch(`${node.url}/api/v2/sec/upload/${shareId}/files/tus`, {
      method: 'POST',
      headers: { 'Service-Auth': token, 'Tus-Resumable': '1.0.0', 'Upload-Length': String(length), 'Upload-Metadata': `filename ${Buffer.from('c.bin').toString('base64')}` },
    });
    expect(res.status).toBe(201);
    return new URL(res.headers.get('location')!).pathname;
  };
  const patch = (node: NodeProcess, path: string, offset: number, body: Uint8Array) =>
    fetch(node.url + path, {
      method: 'PATCH',
      headers: { 'Service-Auth': token, 'Tus-Resumable': '1.0.0', 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' },
      body: new Uint8Array(body),
    });
  const download = async (node: NodeProcess, shareId: string, fid: string) =>
    new Uint8Array(await (await fetch(`${node.url}/api/v2/sec/share/${shareId}/file/${fid}`, { headers: { 'Service-Auth': token } })).arrayBuffer());

  it('completes a tus upload whose chunks alternate between the nodes, with the right bytes', async () => {
    const bytes = randomBytes(3 * 1024 * 1024 + 1234);
    const shareId = await newShare(a);
    const path = await createUpload(a, shareId, bytes.length);
    const chunk = 700 * 1024 + 3; // not aligned with the 256 KiB storage chunks
    for (let offset = 0, i = 0; offset < bytes.length; offset += chunk, i++) {
      const res = await patch(i % 2 === 0 ? a : b, path, offset, bytes.subarray(offset, offset + chunk));
      expect(res.status).toBe(204);
      expect(Number(res.headers.get('upload-offset'))).toBe(Math.min(offset + chunk, bytes.length));
    }
    const fid = path.split('/').pop()!;
    expect(sha(await download(b, shareId, fid))).toBe(sha(bytes));
    expect(sha(await download(a, shareId, fid))).toBe(sha(bytes));
  });

  it('never lets two nodes write one upload at once', async () => {
    const shareId = await newShare(b);
    const size = 2 * 1024 * 1024;
    const path = await createUpload(b, shareId, size);
    const bodies = [Buffer.alloc(size, 0x61), Buffer.alloc(size, 0x62)];
    const answers = await Promise.all([patch(a, path, 0, bodies[0]!), patch(b, path, 0, bodies[1]!)]);
    expect(answers.map((r) => r.status).sort()).toEqual([204, 409]);
    const winner = answers[0]!.status === 204 ? bodies[0]! : bodies[1]!;
    expect(sha(await download(a, shareId, path.split('/').pop()!))).toBe(sha(winner));
  });

  // A node that died right after an upload completed left its checksum to be computed when it
  // started again: the surviving nodes never took the job over.
  it('computes on a surviving node the checksum of a node that died right after the upload completed', async () => {
    const c = await startNodeProcess(shared);
    try {
      const bytes = randomBytes(3 * 1024 * 1024 + 5);
      const shareId = await newShare(a);
      const path = await createUpload(a, shareId, bytes.length);
      const first = 1024 * 1024 + 7;
      expect((await patch(a, path, 0, bytes.subarray(0, first))).status).toBe(204);
      // the last chunk goes to c, which did not see the file's start and so queues its checksum; c dies at once
      const last = await patch(c, path, first, bytes.subarray(first));
      await c.kill('SIGKILL');
      expect(last.status).toBe(204);
      const fid = path.split('/').pop()!;
      const checksum = async () => {
        const detail = (await json(b, 'GET', `/api/v2/sec/share/${shareId}`)) as { files: { id: string; checksum: string }[] };
        return detail.files.find((f) => f.id === fid)?.checksum;
      };
      expect(await checksum()).toBe('');
      expect(await eventually(async () => (await checksum()) || undefined, 10_000)).toBe(sha(bytes));
    } finally {
      await c.stop();
    }
  });

  it('serves a share published on one node to recipients of the other', async () => {
    const shareId = await newShare(a);
    const bytes = randomBytes(100_000);
    const path = await createUpload(a, shareId, bytes.length);
    expect((await patch(a, path, 0, bytes)).status).toBe(204);
    expect((await json(a, 'POST', `/api/v2/sec/share/${shareId}/publish`, { reuseId: false }))['success']).toBe(true);
    const pid = ((await json(b, 'GET', `/api/v2/sec/share/${shareId}`))['publishInfo'] as { id: string }).id;
    const open = await fetch(`${b.url}/api/v2/open/share/${pid}`);
    expect(open.status).toBe(200);
    const cookie = open.headers.get('set-cookie')!.split(';')[0]!;
    const fid = path.split('/').pop()!;
    const file = await fetch(`${a.url}/api/v2/open/share/${pid}/file/${fid}`, { headers: { cookie } });
    expect(file.status).toBe(200);
    expect(sha(new Uint8Array(await file.arrayBuffer()))).toBe(sha(bytes));
  });

  it('refuses a session ended on one node at the next request to the other, and keeps other sessions', async () => {
    const login = `carol${Date.now()}`;
    const created = await json(a, 'POST', '/api/v2/admin/account', { login, state: 'Active', admin: false, password: 'carols-password' });
    expect(created['success']).toBe(true);
    const res = await fetch(`${b.url}/api/v2/open/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account: login, password: 'carols-password' }),
    });
    const carol = ((await res.json()) as { token: string }).token;
    const status = async (node: NodeProcess, t: string) => (await fetch(`${node.url}/api/v2/sec/settings/email`, { headers: { 'Service-Auth': t } })).status;
    // both accounts read by each node, in turn
    for (const node of [a, b]) {
      expect(await status(node, carol)).toBe(200);
      expect(await status(node, token)).toBe(200);
    }
    const out = await fetch(`${b.url}/api/v2/sec/auth/logout-all`, { method: 'POST', headers: { 'Service-Auth': carol } });
    expect(out.status).toBe(200);
    for (const node of [a, b]) {
      expect(await status(node, carol)).toBe(401);
      expect(await status(node, token)).toBe(200);
    }
  });

  it('runs cleanup on several nodes at once, deleting each item once without errors', async () => {
    // three in-process nodes on the same database and bucket, with a clock far in the future
    const clock = manualClock(Date.now());
    const nodes: TestServer[] = [];
    for (let i = 0; i < 3; i++) nodes.push(await startServer({ clock, config: shared, initialAdmin: { kind: 'none' } }));
    try {
      const shareId = await newShare(a);
      const bytes = randomBytes(600_000);
      const path = await createUpload(a, shareId, bytes.length);
      expect((await patch(a, path, 0, bytes)).status).toBe(204);
      expect((await json(a, 'POST', `/api/v2/sec/share/${shareId}/publish`, { reuseId: false }))['success']).toBe(true);
      clock.advance(400 * 86_400_000);
      const reports = await Promise.all(nodes.map((n) => n.runCleanup()));
      expect(reports.reduce((n, r) => n + r.failures, 0)).toBe(0);
      // every share of this test (published and expired, or never published and stale) went exactly once
      const removed = reports.reduce((n, r) => n + r.expiredShares + r.staleShares, 0);
      expect(removed).toBeGreaterThanOrEqual(4);
      expect(reports.reduce((n, r) => n + r.files, 0)).toBeGreaterThanOrEqual(4);
      expect((await fetch(`${b.url}/api/v2/sec/share/${shareId}`, { headers: { 'Service-Auth': token } })).status).toBe(404);
      const again = await Promise.all(nodes.map((n) => n.runCleanup()));
      expect(again.every((r) => r.expiredShares + r.staleShares + r.files + r.failures === 0)).toBe(true);
    } finally {
      await Promise.all(nodes.map((n) => n.stop()));
    }
  });
});
