/**
 * The S3 endpoint goes down and comes back: uploads and downloads fail with a
 * clear 502 while it is away, nothing half-made remains, and everything works
 * again once it returns, without restarting Pier.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3rver, type S3rverInstance } from '../../support/s3rver.js';
import { ADMIN, startServer, type TestServer } from '../../support/server.js';

describe('an S3 outage', () => {
  let s3: S3rverInstance;
  let s: TestServer;
  let token: string;
  beforeAll(async () => {
    s3 = await startS3rver();
    s = await startServer({
      config: {
        backend: {
          files: {
            'default-store': 's3',
            stores: { s3: { enabled: true, type: 's3', endpoint: s3.endpoint, region: s3.region, 'access-key': s3.accessKey, 'secret-key': s3.secretKey, bucket: 'outage' } },
          },
        },
      },
    });
    token = await s.login(ADMIN.login, ADMIN.password);
  });
  afterAll(async () => {
    await s?.stop();
    await s3?.stop();
  });

  const upload = (name: string, bytes: Uint8Array) => {
    const form = new FormData();
    form.append('meta', JSON.stringify({ name, validity: 86_400_000, maxViews: 3 }));
    form.append('file', new Blob([new Uint8Array(bytes)]), `${name}.bin`);
    return fetch(`${s.url}/api/v2/sec/upload`, { method: 'POST', headers: { 'Service-Auth': token }, body: form });
  };
  const shares = async () =>
    (await s.request<{ items: Array<{ id: string; name: string }> }>('GET', '/api/v2/sec/share/search', undefined, { token })).body.items;
  const fileOf = async (shareId: string) =>
    (await s.request<{ files: Array<{ id: string }> }>('GET', `/api/v2/sec/share/${shareId}`, undefined, { token })).body.files[0]!.id;

  it('answers 502 while the endpoint is away and recovers when it returns', async () => {
    const before = randomBytes(300_000);
    const ok = await upload('before', before);
    expect(ok.status).toBe(200);
    const { id: firstShare } = (await ok.json()) as { id: string };
    const fid = await fileOf(firstShare);

    await s3.pause();
    const failed = await upload('during', randomBytes(300_000));
    expect(failed.status).toBe(502);
    const body = (await failed.json()) as { success: boolean; message: string };
    expect(body.success).toBe(false);
    expect(body.message).toMatch(/not reachable/);
    expect((await shares()).map((x) => x.name)).toEqual(['before']);
    const download = await fetch(`${s.url}/api/v2/sec/share/${firstShare}/file/${fid}`, { headers: { 'Service-Auth': token } });
    expect(download.status).toBe(502);
    expect(s.logs()).toMatch(/not reachable/);
    // the rest of Pier is unaffected
    expect((await s.request('GET', '/api/v2/open/info/appconfig')).status).toBe(200);

    await s3.resume();
    const after = await upload('after', randomBytes(200_000));
    expect(after.status).toBe(200);
    const again = await fetch(`${s.url}/api/v2/sec/share/${firstShare}/file/${fid}`, { headers: { 'Service-Auth': token } });
    expect(again.status).toBe(200);
    expect(Buffer.from(await again.arrayBuffer()).equals(before)).toBe(true);
  }, 120_000);
});
