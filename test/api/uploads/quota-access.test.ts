import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fileRows,
  form,
  newShare,
  randomBytesOf,
  raw,
  startUploadServer,
  tusUpload,
  type StoreKind,
  type UploadServer,
} from './support.js';

const KiB = 1024;
const MAX = 1024 * KiB;

describe.each<StoreKind>(['database', 'filesystem'])('share max-size and access on the %s store', (kind) => {
  let s: UploadServer;
  let otherToken: string;
  beforeAll(async () => {
    s = await startUploadServer(kind, { share: { 'max-size': '1M', 'chunk-size': '64K' } });
    const created = await s.request('POST', '/api/v2/admin/account', { login: 'bob', state: 'Active', admin: false, password: 'bob-password' }, { token: s.token });
    expect(created.body).toMatchObject({ success: true });
    otherToken = await s.login('bob', 'bob-password');
  });
  afterAll(async () => s?.dispose());

  const tusCreate = (shareId: string, length: number, token = s.token) =>
    raw(s, 'POST', `/api/v2/sec/upload/${shareId}/files/tus`, { 'Service-Auth': token, 'Tus-Resumable': '1.0.0', 'Upload-Length': String(length) });

  it('holds the limit when tus creations race: the declared lengths are reserved atomically', async () => {
    const shareId = await newShare(s, s.token);
    const answers = await Promise.all(Array.from({ length: 6 }, () => tusCreate(shareId, 300 * KiB)));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 201, 201, 413, 413, 413]);
    for (const r of answers.filter((x) => x.status === 413)) expect(Number(r.headers.get('tus-max-size'))).toBe(MAX - 900 * KiB);
    const rows = fileRows(s, shareId);
    expect(rows).toHaveLength(3);
    expect(rows.reduce((n, r) => n + r.length, 0)).toBe(900 * KiB);
  });

  it('holds the limit across a mix of parallel multipart and tus uploads, nothing half-counted', async () => {
    const shareId = await newShare(s, s.token);
    const multipart = Array.from({ length: 4 }, (_, i) =>
      raw(s, 'POST', `/api/v2/sec/upload/${shareId}/files/add`, { 'Service-Auth': s.token }, form(undefined, [{ name: `m${i}.bin`, data: randomBytesOf(250 * KiB, i + 1) }])),
    );
    const tus = Array.from({ length: 3 }, (_, i) =>
      tusUpload(s, s.token, shareId, randomBytesOf(250 * KiB, i + 10), { chunkSize: 64 * KiB, name: `t${i}.bin` }).then(
        () => 200,
        () => 413,
      ),
    );
    const statuses = [...(await Promise.all(multipart)).map((r) => r.status), ...(await Promise.all(tus))];
    expect(statuses.filter((x) => x === 200).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((x) => x === 200 || x === 413)).toBe(true);
    const rows = fileRows(s, shareId);
    expect(rows.reduce((n, r) => n + r.length, 0)).toBeLessThanOrEqual(MAX);
    // every multipart file that remains is complete; failed requests left nothing
    const multipartRows = rows.filter((r) => r.filename.startsWith('m'));
    expect(multipartRows.length).toBe(statuses.slice(0, 4).filter((x) => x === 200).length);
    for (const r of multipartRows) expect([r.length, r.real_size]).toEqual([250 * KiB, 250 * KiB]);
  });

  it('refuses a tus upload larger than the remaining quota before storing a byte (413 with Tus-Max-Size)', async () => {
    const shareId = await newShare(s, s.token);
    expect((await tusCreate(shareId, MAX)).status).toBe(201);
    const r = await tusCreate(shareId, 1);
    expect(r.status).toBe(413);
    expect(r.headers.get('tus-max-size')).toBe('0');
  });

  it('needs a token (401) and an accessible share (404) on every upload route', async () => {
    const mine = await newShare(s, s.token);
    const created = await tusCreate(mine, 10);
    const fid = created.headers.get('location')!.split('/').pop()!;
    const tusBase = `/api/v2/sec/upload/${mine}/files/tus`;
    const calls: [string, string][] = [
      ['OPTIONS', tusBase],
      ['POST', tusBase],
      ['HEAD', `${tusBase}/${fid}`],
      ['PATCH', `${tusBase}/${fid}`],
      ['DELETE', `${tusBase}/${fid}`],
      ['POST', `/api/v2/sec/upload/${mine}/files/add`],
    ];
    for (const [method, path] of calls) {
      const headers = { 'Tus-Resumable': '1.0.0', 'Upload-Length': '1', 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' };
      expect((await raw(s, method, path, headers)).status, `${method} ${path} without token`).toBe(401);
      const foreign = await raw(s, method, path, { ...headers, 'Service-Auth': otherToken }, method === 'PATCH' ? 'x' : undefined);
      expect(foreign.status, `${method} ${path} by another user`).toBe(404);
    }
    const add = await raw(s, 'POST', `/api/v2/sec/upload/${mine}/files/add`, { 'Service-Auth': otherToken }, form(undefined, [{ name: 'a', data: Buffer.from('a') }]));
    expect(add.status).toBe(404);
    // a file id of another share is not found under this share
    const theirs = await newShare(s, otherToken);
    const head = await raw(s, 'HEAD', `/api/v2/sec/upload/${theirs}/files/tus/${fid}`, { 'Service-Auth': otherToken, 'Tus-Resumable': '1.0.0' });
    expect(head.status).toBe(404);
    expect(fileRows(s, mine)).toHaveLength(1);
  });
});
