import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMariadb } from '../../support/mariadb.js';
import { startPostgres } from '../../support/postgres.js';
import { startServer, type TestServer } from '../../support/server.js';
import type { DatabaseInstance } from '../../support/system.js';
import { adminUser, createAlias, guest } from '../aliases/support.js';
import { fileRows, newShare, raw, startUploadServer, storedBinaries, type UploadServer } from './support.js';

const form = (meta: object | undefined, files: number): FormData => {
  const f = new FormData();
  if (meta) f.append('meta', JSON.stringify(meta));
  for (let i = 0; i < files; i++) f.append(`file${i}`, new Blob([`x${i}`]), `f${i}.txt`);
  return f;
};

const shareCount = (s: UploadServer): number => s.sql((db) => (db.prepare('SELECT count(*) AS n FROM shares').get() as { n: number }).n);

describe('bounds on what one request can create', () => {
  let s: UploadServer;
  beforeAll(async () => {
    s = await startUploadServer('filesystem', {}, { config: { limits: { 'files-per-share': 5, 'shares-per-alias-per-hour': 3, 'shares-per-guest-per-hour': 3 } } });
  });
  afterAll(() => s.dispose());

  // One small anonymous multipart request used to create thousands of files in the owner's folder.
  it('refuses a multipart upload with more files than a share may hold and keeps nothing of it', async () => {
    const before = shareCount(s);
    const r = await raw(s, 'POST', '/api/v2/sec/upload', { 'Service-Auth': s.token }, form({ validity: 3600_000, maxViews: 3 }, 8));
    expect(r.status).toBe(413);
    expect(await r.text()).toMatch(/at most 5 files/);
    expect(shareCount(s)).toBe(before);
    expect(fileRows(s)).toHaveLength(0);

    const fine = await raw(s, 'POST', '/api/v2/sec/upload', { 'Service-Auth': s.token }, form({ validity: 3600_000, maxViews: 3 }, 5));
    expect(fine.status).toBe(200);
  });

  it('counts files already in the share, for multipart additions and tus creation alike', async () => {
    const id = await newShare(s, s.token);
    expect((await raw(s, 'POST', `/api/v2/sec/upload/${id}/files/add`, { 'Service-Auth': s.token }, form(undefined, 4))).status).toBe(200);
    const add = await raw(s, 'POST', `/api/v2/sec/upload/${id}/files/add`, { 'Service-Auth': s.token }, form(undefined, 2));
    expect(add.status).toBe(413);
    expect(fileRows(s, id)).toHaveLength(4);
    const tusHeaders = { 'Service-Auth': s.token, 'Tus-Resumable': '1.0.0', 'Upload-Length': '1', 'Upload-Metadata': `filename ${Buffer.from('a').toString('base64')}` };
    expect((await raw(s, 'POST', `/api/v2/sec/upload/${id}/files/tus`, tusHeaders)).status).toBe(201);
    expect((await raw(s, 'POST', `/api/v2/sec/upload/${id}/files/tus`, tusHeaders)).status).toBe(413);
    expect(fileRows(s, id)).toHaveLength(5);
  });

  // One anonymous multipart request of a few hundred KB, sent through an upload
  // link, put 2000 files into the owner's received folder.
  it('refuses the 2000 tiny files of one guest request and keeps no share, no file row and no byte of it', async () => {
    const owner = await adminUser(s);
    const aliasId = await createAlias(s, owner);
    const [shares, binaries] = [shareCount(s), storedBinaries(s)];
    const r = await raw(s, 'POST', '/api/v2/alias/upload', guest(aliasId), form({ validity: 0, maxViews: 3 }, 2000));
    expect(r.status).toBe(413);
    expect(shareCount(s)).toBe(shares);
    expect(storedBinaries(s)).toBe(binaries);
    expect(s.sql((db) => db.prepare('SELECT count(*) AS n FROM shares WHERE alias_id = ?').get(aliasId))).toEqual({ n: 0 });
  });

  it('bounds the files a guest adds to a share of the upload link with tus', async () => {
    const owner = await adminUser(s);
    const aliasId = await createAlias(s, owner);
    const created = await s.request<{ id: string }>('POST', '/api/v2/alias/upload/new', { validity: 0, maxViews: 10 }, { headers: guest(aliasId) });
    const id = created.body.id;
    const tus = { ...guest(aliasId), 'Tus-Resumable': '1.0.0', 'Upload-Length': '1', 'Upload-Metadata': `filename ${Buffer.from('g').toString('base64')}` };
    for (let i = 0; i < 5; i++) expect((await raw(s, 'POST', `/api/v2/alias/upload/${id}/files/tus`, tus)).status).toBe(201);
    const binaries = storedBinaries(s);
    expect((await raw(s, 'POST', `/api/v2/alias/upload/${id}/files/tus`, tus)).status).toBe(413);
    expect((await raw(s, 'POST', `/api/v2/alias/upload/${id}/files/add`, guest(aliasId), form(undefined, 1))).status).toBe(413);
    expect(fileRows(s, id)).toHaveLength(5);
    expect(storedBinaries(s)).toBe(binaries);
  });

  // Guests with an upload link could create shares without end.
  it('lets a guest of one upload link create a few shares an hour, even in one parallel burst', async () => {
    const owner = await adminUser(s);
    const aliasId = await createAlias(s, owner);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => s.request('POST', '/api/v2/alias/upload/new', { validity: 0, maxViews: 10 }, { headers: guest(aliasId) })),
    );
    expect(answers.filter((r) => r.status === 200)).toHaveLength(3);
    const refused = answers.filter((r) => r.status === 429);
    expect(refused).toHaveLength(7);
    expect(Number(refused[0]!.headers.get('retry-after'))).toBeGreaterThan(3000);
    const multipart = await raw(s, 'POST', '/api/v2/alias/upload', guest(aliasId), form({ validity: 0, maxViews: 3 }, 1));
    expect(multipart.status).toBe(429);
    // the owner is not limited by the guests' link
    expect((await raw(s, 'POST', '/api/v2/sec/upload', { 'Service-Auth': s.token }, form({ validity: 3600_000, maxViews: 3 }, 1))).status).toBe(200);
  });
});

// The counts under row locks on the two network databases, where parallel
// requests really run side by side.
describe.each([
  ['PostgreSQL', startPostgres],
  ['MariaDB', startMariadb],
] as const)('bounds on %s', (_name, startDb) => {
  let db: DatabaseInstance;
  let s: TestServer;

  beforeAll(async () => {
    db = await startDb('pier_limits_test');
    s = await startServer({
      config: {
        backend: { jdbc: { url: db.url, user: db.user, password: db.password } },
        limits: { 'files-per-share': 4, 'shares-per-alias-per-hour': 3, 'shares-per-guest-per-hour': 3 },
      },
    });
  }, 120_000);
  afterAll(async () => {
    await s?.stop();
    await db?.stop();
  });

  it('lets no parallel burst of share or file creations past the limits', async () => {
    const owner = await adminUser(s);
    const aliasId = await createAlias(s, owner);
    const shares = await Promise.all(
      Array.from({ length: 8 }, () => s.request<{ id: string }>('POST', '/api/v2/alias/upload/new', { validity: 0, maxViews: 10 }, { headers: guest(aliasId) })),
    );
    expect(shares.filter((r) => r.status === 200)).toHaveLength(3);
    expect(shares.filter((r) => r.status === 429)).toHaveLength(5);

    const id = shares.find((r) => r.status === 200)!.body.id;
    const tus = { ...guest(aliasId), 'Tus-Resumable': '1.0.0', 'Upload-Length': '1', 'Upload-Metadata': `filename ${Buffer.from('p').toString('base64')}` };
    const files = await Promise.all(Array.from({ length: 8 }, () => fetch(`${s.url}/api/v2/alias/upload/${id}/files/tus`, { method: 'POST', headers: tus })));
    expect(files.filter((r) => r.status === 201)).toHaveLength(4);
    expect(files.filter((r) => r.status === 413)).toHaveLength(4);
  });
});
