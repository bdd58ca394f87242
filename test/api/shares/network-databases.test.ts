import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { download, randomBytesOf, raw, sha256, tusUpload } from '../uploads/support.js';
import { startMariadb } from '../../support/mariadb.js';
import { startPostgres } from '../../support/postgres.js';
import { fetchRaw, publish, shareDetail, shareWithFiles } from '../../support/share-fixtures.js';
import { ADMIN, startServer, type TestServer } from '../../support/server.js';
import type { DatabaseInstance } from '../../support/system.js';

// The share queries (search with counts and sums, the atomic view count, the
// deletes) on the two network databases.
describe.each([
  ['PostgreSQL', startPostgres],
  ['MariaDB', startMariadb],
] as const)('shares on %s', (_name, startDb) => {
  let db: DatabaseInstance;
  let s: TestServer;
  let token: string;
  beforeAll(async () => {
    db = await startDb('pier_shares_test');
    s = await startServer({
      config: { backend: { jdbc: { url: db.url, user: db.user, password: db.password }, share: { 'max-size': '1M', 'chunk-size': '64K' } } },
    });
    token = await s.login(ADMIN.login, ADMIN.password);
  }, 120_000);
  afterAll(async () => {
    await s?.stop();
    await db?.stop();
  });

  it('searches, publishes, counts views atomically, serves and deletes', async () => {
    const { id, files } = await shareWithFiles(s, token, [{ name: 'a.txt', content: 'hello' }, { name: 'b.txt', content: 'xy' }], {
      name: 'Network Share',
      description: 'About CATS',
      maxViews: 3,
      password: 'pw',
    });
    const search = await s.request<{ items: Array<Record<string, unknown>> }>('GET', '/api/v2/sec/share/search?q=cats', undefined, { token });
    expect(search.body.items).toHaveLength(1);
    expect(search.body.items[0]).toMatchObject({ id, name: 'Network Share', files: 2, size: 7, password: true, published: null });
    const pid = await publish(s, token, id);
    const views = await Promise.all(Array.from({ length: 10 }, () => s.request('GET', `/api/v2/open/share/${pid}`, undefined, { headers: { 'Service-Password': 'pw' } })));
    expect(views.filter((r) => r.status === 200)).toHaveLength(3);
    expect((await shareDetail(s, token, id)).publishInfo!.views).toBe(3);
    const range = await fetchRaw(s, `/api/v2/sec/share/${id}/file/${files['a.txt']!.id}`, { headers: { 'Service-Auth': token, Range: 'bytes=1-3' } });
    expect(range.status).toBe(206);
    expect(await range.text()).toBe('ell');
    expect((await s.request('DELETE', `/api/v2/sec/share/${id}/file/${files['b.txt']!.id}`, undefined, { token })).body).toEqual({ success: true, message: 'File deleted.', code: 'share.file-deleted' });
    expect((await s.request('DELETE', `/api/v2/sec/share/${id}`, undefined, { token })).body).toEqual({ success: true, message: 'Share deleted.', code: 'share.deleted' });
    expect((await s.request('GET', `/api/v2/sec/share/${id}`, undefined, { token })).status).toBe(404);
  });

  it('stores a tus upload in database chunks and holds the size limit when creations race', async () => {
    const create = await s.request<{ id: string }>('POST', '/api/v2/sec/upload/new', { name: null, validity: 86_400_000, maxViews: 5, description: null, password: null }, { token });
    const shareId = create.body.id;
    const bytes = randomBytesOf(300 * 1024 + 7, 3);
    const location = await tusUpload(s, token, shareId, bytes, { chunkSize: 100 * 1024, name: 'net.bin' });
    const fid = location.slice(location.lastIndexOf('/') + 1);
    expect(sha256(await download(s, token, shareId, fid))).toBe(sha256(bytes));
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        raw(s, 'POST', `/api/v2/sec/upload/${shareId}/files/tus`, { 'Service-Auth': token, 'Tus-Resumable': '1.0.0', 'Upload-Length': String(200 * 1024) }),
      ),
    );
    // 1 MiB - 300 KiB leaves room for three files of 200 KiB
    expect(answers.map((r) => r.status).sort()).toEqual([201, 201, 201, 413, 413, 413]);
  });
});
