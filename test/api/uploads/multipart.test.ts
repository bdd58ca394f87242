import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  count,
  download,
  fileRows,
  form,
  newShare,
  randomBytesOf,
  raw,
  sha256,
  startUploadServer,
  storedBinaries,
  type StoreKind,
  type UploadServer,
} from './support.js';

const KiB = 1024;

describe.each<StoreKind>(['database', 'filesystem'])('multipart uploads on the %s store', (kind) => {
  let s: UploadServer;
  beforeAll(async () => {
    s = await startUploadServer(kind, { share: { 'max-size': '1M', 'chunk-size': '64K' } });
  });
  afterAll(async () => s?.dispose());

  const post = (path: string, body: FormData | string, headers: Record<string, string> = {}) =>
    raw(s, 'POST', path, { 'Service-Auth': s.token, ...headers }, body);

  it('creates a share with its meta and files, streamed, each with checksum and type', async () => {
    const a = randomBytesOf(300 * KiB, 1);
    const b = Buffer.from('just text\n');
    const r = await post('/api/v2/sec/upload', form({ name: 'Holiday', validity: 86_400_000, maxViews: 5 }, [
      { name: 'a.bin', data: a, field: 'file[]' },
      { name: 'b.txt', data: b, type: 'text/plain' },
    ]));
    expect(r.status).toBe(200);
    const body = (await r.json()) as { success: boolean; message: string; id: string };
    expect(body).toMatchObject({ success: true, message: 'Share created.' });
    const rows = fileRows(s, body.id).sort((x, y) => x.filename.localeCompare(y.filename));
    expect(rows.map((x) => [x.filename, x.length, x.real_size, x.checksum])).toEqual([
      ['a.bin', a.length, a.length, sha256(a)],
      ['b.txt', b.length, b.length, sha256(b)],
    ]);
    expect(rows[1]!.mimetype).toBe('text/plain');
    expect(sha256(await download(s, s.token, body.id, rows[0]!.id))).toBe(sha256(a));
    const share = s.sql((db) => db.prepare('select name, validity, max_views from shares where id = ?').get(body.id));
    expect(share).toEqual({ name: 'Holiday', validity: 86_400_000, max_views: 5 });
  });

  it('uses the defaults without meta (2 days, 30 views) and accepts an empty form', async () => {
    const r = await post('/api/v2/sec/upload', form(undefined, [{ name: 'x.txt', data: Buffer.from('x') }]));
    const body = (await r.json()) as { id: string };
    expect(s.sql((db) => db.prepare('select validity, max_views from shares where id = ?').get(body.id))).toEqual({
      validity: 2 * 86_400_000,
      max_views: 30,
    });
    const empty = await post('/api/v2/sec/upload', form({ validity: 1000, maxViews: 1 }, []));
    expect(empty.status).toBe(200);
    expect(((await empty.json()) as { success: boolean }).success).toBe(true);
  });

  it('is all or nothing: a second file over max-size leaves neither the share nor the first file', async () => {
    const before = { shares: count(s, 'shares'), files: count(s, 'file_meta'), binaries: storedBinaries(s) };
    const r = await post('/api/v2/sec/upload', form({ validity: 86_400_000, maxViews: 5 }, [
      { name: 'fits.bin', data: randomBytesOf(400 * KiB, 2) },
      { name: 'too-big.bin', data: randomBytesOf(700 * KiB, 3) },
    ]));
    expect(r.status).toBe(413);
    expect(((await r.json()) as { message: string }).message).toBe('Maximum size (1M) exceeded');
    expect({ shares: count(s, 'shares'), files: count(s, 'file_meta'), binaries: storedBinaries(s) }).toEqual(before);
  });

  it('answers a business refusal with success:false and leaves nothing', async () => {
    const before = count(s, 'shares');
    const r = await post('/api/v2/sec/upload', form({ validity: 400 * 86_400_000, maxViews: 5 }, [{ name: 'a', data: Buffer.from('a') }]));
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ success: false, message: 'Maximum validity (365 days) exceeded', code: 'share.validity-exceeded', id: '' });
    expect(count(s, 'shares')).toBe(before);
  });

  it('adds files to an existing share, all or nothing', async () => {
    const shareId = await newShare(s, s.token);
    const ok = await post(`/api/v2/sec/upload/${shareId}/files/add`, form(undefined, [{ name: 'one.bin', data: randomBytesOf(500 * KiB, 4) }]));
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ success: true, message: 'File(s) added', code: 'share.files-added' });
    const binaries = storedBinaries(s);
    const over = await post(`/api/v2/sec/upload/${shareId}/files/add`, form(undefined, [
      { name: 'two.bin', data: randomBytesOf(100 * KiB, 5) },
      { name: 'three.bin', data: randomBytesOf(500 * KiB, 6) },
    ]));
    expect(over.status).toBe(413);
    expect(fileRows(s, shareId).map((x) => x.filename)).toEqual(['one.bin']);
    expect(storedBinaries(s)).toBe(binaries);
  });

  it('answers 400, not 500, to malformed multipart bodies and bad meta', async () => {
    const shareId = await newShare(s, s.token);
    const truncated = '--XYZ\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nabc';
    const cases: [string, string, Record<string, string>][] = [
      ['/api/v2/sec/upload', truncated, { 'Content-Type': 'multipart/form-data; boundary=XYZ' }],
      ['/api/v2/sec/upload', 'hello', { 'Content-Type': 'multipart/form-data' }],
      ['/api/v2/sec/upload', 'hello', { 'Content-Type': 'text/plain' }],
      [`/api/v2/sec/upload/${shareId}/files/add`, truncated, { 'Content-Type': 'multipart/form-data; boundary=XYZ' }],
    ];
    for (const [path, body, headers] of cases) {
      const r = await post(path, body, headers);
      expect(r.status, `${path} ${headers['Content-Type']}`).toBe(400);
      expect(((await r.json()) as { success: boolean }).success).toBe(false);
    }
    const badMeta = new FormData();
    badMeta.append('META', '{"validity": "soon", "maxViews": 1}');
    expect((await post('/api/v2/sec/upload', badMeta)).status).toBe(400);
    const late = form(undefined, [{ name: 'a', data: Buffer.from('a') }]);
    late.append('meta', JSON.stringify({ validity: 1000, maxViews: 1 }));
    expect((await post('/api/v2/sec/upload', late)).status).toBe(400);
    expect(fileRows(s, shareId)).toEqual([]);
  });

  it('keeps file names safe', async () => {
    const r = await post('/api/v2/sec/upload', form(undefined, [{ name: '../../etc/passwd', data: Buffer.from('root') }]));
    const { id } = (await r.json()) as { id: string };
    const [row] = fileRows(s, id);
    expect(row!.filename).toBe('passwd');
    expect(row!.location).not.toContain('..');
  });
});
