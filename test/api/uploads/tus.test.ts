import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  download,
  eventually,
  fileIdOf,
  fileRows,
  newShare,
  randomBytesOf,
  raw,
  sha256,
  startUploadServer,
  tusUpload,
  type StoreKind,
  type UploadServer,
} from './support.js';

const MiB = 1024 * 1024;

/** Sends `head` bytes of a PATCH body that announces `total`, then drops the connection. */
const interruptedPatch = (url: string, token: string, offset: number, total: Buffer, head: number): Promise<void> =>
  new Promise((resolve) => {
    const u = new URL(url);
    const req = httpRequest({
      host: u.hostname,
      port: u.port,
      path: u.pathname,
      method: 'PATCH',
      headers: {
        'Service-Auth': token,
        'Tus-Resumable': '1.0.0',
        'Upload-Offset': String(offset),
        'Content-Type': 'application/offset+octet-stream',
        'Content-Length': String(total.length),
      },
    });
    req.on('error', () => resolve());
    req.on('response', (r) => {
      r.resume();
      resolve();
    });
    req.write(total.subarray(0, head), () => {
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 300);
    });
  });

const create = async (s: UploadServer, shareId: string, length: number, headers: Record<string, string> = {}) =>
  raw(s, 'POST', `/api/v2/sec/upload/${shareId}/files/tus`, {
    'Service-Auth': s.token,
    'Tus-Resumable': '1.0.0',
    'Upload-Length': String(length),
    ...headers,
  });

describe.each<StoreKind>(['database', 'filesystem'])('tus uploads on the %s store', (kind) => {
  let s: UploadServer;
  beforeAll(async () => {
    s = await startUploadServer(kind, { share: { 'chunk-size': '256K' } });
  });
  afterAll(async () => s?.dispose());

  it('stores 5 MiB sent in 1 MiB chunks byte for byte, with its checksum and detected type', async () => {
    const shareId = await newShare(s, s.token);
    const data = randomBytesOf(5 * MiB + 123, 7);
    const url = await tusUpload(s, s.token, shareId, data, { chunkSize: MiB, name: 'big.bin' });
    expect(url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/api/v2/sec/upload/${shareId}/files/tus/[A-Za-z0-9_-]+$`));
    const fid = fileIdOf(url);
    expect(sha256(await download(s, s.token, shareId, fid))).toBe(sha256(data));
    const row = await eventually(() => fileRows(s, shareId).find((r) => r.id === fid && r.checksum !== ''));
    expect(row.checksum).toBe(sha256(data));
    expect(row.length).toBe(data.length);
    expect(row.real_size).toBe(data.length);
  });

  it('resumes an upload interrupted in the middle of a chunk at the offset HEAD reports', async () => {
    const shareId = await newShare(s, s.token);
    const data = randomBytesOf(3 * MiB + 17, 11);
    const created = await create(s, shareId, data.length, { 'Service-File-Name': 'resume.bin' });
    expect(created.status).toBe(201);
    const url = created.headers.get('location')!;
    await interruptedPatch(url, s.token, 0, data.subarray(0, 2 * MiB), 700 * 1024 + 5);
    const head = await eventually(async () => {
      const h = await fetch(url, { method: 'HEAD', headers: { 'Service-Auth': s.token, 'Tus-Resumable': '1.0.0' } });
      const offset = Number(h.headers.get('upload-offset'));
      return h.status === 200 && offset > 0 ? { offset, length: Number(h.headers.get('upload-length')) } : undefined;
    });
    expect(head.length).toBe(data.length);
    expect(head.offset).toBeLessThanOrEqual(700 * 1024 + 5);
    const rest = await fetch(url, {
      method: 'PATCH',
      headers: { 'Service-Auth': s.token, 'Tus-Resumable': '1.0.0', 'Upload-Offset': String(head.offset), 'Content-Type': 'application/offset+octet-stream' },
      body: new Uint8Array(data.subarray(head.offset)),
    });
    expect(rest.status).toBe(204);
    expect(Number(rest.headers.get('upload-offset'))).toBe(data.length);
    const fid = fileIdOf(url);
    expect(sha256(await download(s, s.token, shareId, fid))).toBe(sha256(data));
    // the checksum is computed although no single request saw every byte in order
    const row = await eventually(() => fileRows(s, shareId).find((r) => r.id === fid && r.checksum !== ''));
    expect(row.checksum).toBe(sha256(data));
  });

  it('answers 409 to a PATCH at an offset other than the stored one, and 413 to bytes beyond the declared length', async () => {
    const shareId = await newShare(s, s.token);
    const url = (await create(s, shareId, 10)).headers.get('location')!;
    const patch = (offset: number, body: Buffer) =>
      fetch(url, {
        method: 'PATCH',
        headers: { 'Service-Auth': s.token, 'Tus-Resumable': '1.0.0', 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' },
        body: new Uint8Array(body),
      });
    expect((await patch(0, Buffer.from('abcd'))).status).toBe(204);
    expect((await patch(2, Buffer.from('xx'))).status).toBe(409);
    expect((await patch(8, Buffer.from('xx'))).status).toBe(409);
    expect((await patch(4, Buffer.from('0123456789'))).status).toBe(413);
    const done = await patch(4, Buffer.from('efghij'));
    expect(done.status).toBe(204);
    expect(done.headers.get('upload-offset')).toBe('10');
    expect((await download(s, s.token, shareId, fileIdOf(url))).toString()).toBe('abcdefghij');
  });

  it('takes creation-with-upload, Service-File-* headers with percent-encoded UTF-8, and makes a ../ name safe', async () => {
    const shareId = await newShare(s, s.token);
    const body = Buffer.from('<html><body>hi</body></html>');
    const r = await raw(
      s,
      'POST',
      `/api/v2/sec/upload/${shareId}/files/tus`,
      {
        'Service-Auth': s.token,
        'Tus-Resumable': '1.0.0',
        'Service-File-Length': String(body.length),
        'Service-File-Name': encodeURIComponent('Grüße ☃.html'),
        'Service-File-Type': 'text/html',
        'Content-Type': 'application/offset+octet-stream',
      },
      body,
    );
    expect(r.status).toBe(201);
    expect(r.headers.get('upload-offset')).toBe(String(body.length));
    const evil = await create(s, shareId, 3, { 'Service-File-Name': encodeURIComponent('../../escape.txt') });
    expect(evil.status).toBe(201);
    const rows = fileRows(s, shareId);
    expect(rows.map((x) => x.filename).sort()).toEqual(['Grüße ☃.html', 'escape.txt']);
    const html = rows.find((x) => x.filename.endsWith('.html'))!;
    expect(html.mimetype).toBe('text/html');
    expect(html.real_size).toBe(body.length);
    if (kind === 'filesystem') for (const row of rows) expect(row.location).not.toContain('..');
    const bad = await create(s, shareId, 3, { 'Service-File-Name': '%E0%A4%A' });
    expect(bad.status).toBe(400);
  });

  it('creates from Upload-Metadata, removes with DELETE, refuses a missing length', async () => {
    const shareId = await newShare(s, s.token);
    const meta = `filename ${Buffer.from('notes.txt').toString('base64')},filetype ${Buffer.from('text/plain').toString('base64')}`;
    const r = await create(s, shareId, 5, { 'Upload-Metadata': meta });
    expect(r.status).toBe(201);
    const url = r.headers.get('location')!;
    expect(fileRows(s, shareId)[0]!.filename).toBe('notes.txt');
    const del = await fetch(url, { method: 'DELETE', headers: { 'Service-Auth': s.token, 'Tus-Resumable': '1.0.0' } });
    expect(del.status).toBe(204);
    expect(fileRows(s, shareId)).toEqual([]);
    const head = await fetch(url, { method: 'HEAD', headers: { 'Service-Auth': s.token, 'Tus-Resumable': '1.0.0' } });
    expect(head.status).toBe(404);
    const noLength = await raw(s, 'POST', `/api/v2/sec/upload/${shareId}/files/tus`, { 'Service-Auth': s.token, 'Tus-Resumable': '1.0.0' });
    expect(noLength.status).toBe(400);
    const options = await raw(s, 'OPTIONS', `/api/v2/sec/upload/${shareId}/files/tus`, { 'Service-Auth': s.token });
    expect(options.status).toBe(204);
    expect(options.headers.get('tus-extension')).toBe('creation,creation-with-upload,termination');
  });
});
