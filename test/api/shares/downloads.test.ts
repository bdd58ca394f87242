import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchRaw, publish, renameStoredFile, shareWithFiles, waitForChecksums, type SharedFile } from '../../support/share-fixtures.js';
import { ADMIN, startServer, type TestServer } from '../../support/server.js';

const LEN = 5000;
const CHUNK = 1024;

describe('file downloads', () => {
  let s: TestServer;
  let token: string;
  let shareId: string;
  let pid: string;
  const data = randomBytes(LEN);
  let bin: SharedFile;
  let files: Record<string, SharedFile>;
  beforeAll(async () => {
    s = await startServer({ config: { 'file-download': { 'download-chunk-size': CHUNK } } });
    token = await s.login(ADMIN.login, ADMIN.password);
    const share = await shareWithFiles(s, token, [
      { name: 'data.bin', content: data },
      { name: 'page.html', content: '<html><body><script>alert(document.cookie)</script></body></html>', type: 'text/html' },
      { name: 'image.svg', content: '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', type: 'image/svg+xml' },
      { name: 'greeting.txt', content: 'hi', type: 'text/plain' },
      { name: 'empty.txt', content: '' },
    ]);
    shareId = share.id;
    pid = await publish(s, token, shareId);
    const detail = await waitForChecksums(s, token, shareId);
    files = Object.fromEntries(detail.files.map((f) => [f.filename, f]));
    bin = files['data.bin']!;
  });
  afterAll(() => s.stop());

  type Init = { method?: string; headers?: Record<string, string>; signal?: AbortSignal };
  const own = (fid: string, init: Init = {}) =>
    fetchRaw(s, `/api/v2/sec/share/${shareId}/file/${fid}`, { ...init, headers: { 'Service-Auth': token, ...init.headers } });
  const pub = (fid: string, init: Init = {}) => fetchRaw(s, `/api/v2/open/share/${pid}/file/${fid}`, init);
  const range = async (r: string) => {
    const res = await own(bin.id, { headers: { Range: r } });
    return { res, body: Buffer.from(await res.arrayBuffer()) };
  };

  it('serves the whole file with length, type, ETag, Last-Modified and security headers', async () => {
    for (const res of [await own(bin.id), await pub(bin.id)]) {
      expect(res.status).toBe(200);
      const body = Buffer.from(await res.arrayBuffer());
      expect(body.equals(data)).toBe(true);
      expect(res.headers.get('content-length')).toBe(String(LEN));
      expect(res.headers.get('accept-ranges')).toBe('bytes');
      expect(res.headers.get('etag')).toBe(`"${createHash('sha256').update(data).digest('hex')}"`);
      expect(res.headers.get('last-modified')).toBe(new Date(bin.created).toUTCString());
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toBe('sandbox');
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename="data.bin"; filename*=UTF-8''data.bin`);
    }
  });

  it('answers single ranges: first byte, last byte, closed, open (capped), suffix', async () => {
    let r = await range('bytes=0-0');
    expect(r.res.status).toBe(206);
    expect(r.res.headers.get('content-range')).toBe(`bytes 0-0/${LEN}`);
    expect(r.res.headers.get('content-length')).toBe('1');
    expect(r.body.equals(data.subarray(0, 1))).toBe(true);

    r = await range(`bytes=${LEN - 1}-${LEN - 1}`);
    expect(r.res.status).toBe(206);
    expect(r.res.headers.get('content-range')).toBe(`bytes ${LEN - 1}-${LEN - 1}/${LEN}`);
    expect(r.body.equals(data.subarray(LEN - 1))).toBe(true);

    r = await range('bytes=100-2999');
    expect(r.res.headers.get('content-range')).toBe(`bytes 100-2999/${LEN}`);
    expect(r.body.equals(data.subarray(100, 3000))).toBe(true);

    r = await range(`bytes=${LEN - 10}-${LEN + 100}`);
    expect(r.res.headers.get('content-range')).toBe(`bytes ${LEN - 10}-${LEN - 1}/${LEN}`);
    expect(r.body.equals(data.subarray(LEN - 10))).toBe(true);

    r = await range('bytes=10-');
    expect(r.res.status).toBe(206);
    expect(r.res.headers.get('content-range')).toBe(`bytes 10-${10 + CHUNK - 1}/${LEN}`);
    expect(r.body.equals(data.subarray(10, 10 + CHUNK))).toBe(true);

    r = await range(`bytes=${LEN - 100}-`);
    expect(r.res.headers.get('content-range')).toBe(`bytes ${LEN - 100}-${LEN - 1}/${LEN}`);
    expect(r.body).toHaveLength(100);

    r = await range('bytes=-300');
    expect(r.res.headers.get('content-range')).toBe(`bytes ${LEN - 300}-${LEN - 1}/${LEN}`);
    expect(r.body.equals(data.subarray(LEN - 300))).toBe(true);

    r = await range('bytes=-999999');
    expect(r.res.headers.get('content-range')).toBe(`bytes 0-${LEN - 1}/${LEN}`);
    expect(r.body.equals(data)).toBe(true);

    // several ranges: the whole file
    r = await range('bytes=0-1,5-6');
    expect(r.res.status).toBe(200);
    expect(r.body.equals(data)).toBe(true);

    // the public route behaves the same
    const p = await pub(bin.id, { headers: { Range: 'bytes=1-2' } });
    expect(p.status).toBe(206);
    expect(Buffer.from(await p.arrayBuffer()).equals(data.subarray(1, 3))).toBe(true);
  });

  it('answers 416 with the length for unsatisfiable ranges', async () => {
    for (const h of [`bytes=${LEN}-`, `bytes=${LEN}-${LEN + 5}`, 'bytes=9-3', 'bytes=-0']) {
      const { res } = await range(h);
      expect(res.status, h).toBe(416);
      expect(res.headers.get('content-range'), h).toBe(`bytes */${LEN}`);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toBe('sandbox');
    }
    const empty = await own(files['empty.txt']!.id, { headers: { Range: 'bytes=0-' } });
    expect(empty.status).toBe(416);
    expect(empty.headers.get('content-range')).toBe('bytes */0');
    const whole = await own(files['empty.txt']!.id);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-length')).toBe('0');
  });

  it('answers HEAD with the headers only, and 304 for a matching If-None-Match', async () => {
    const head = await own(bin.id, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(LEN));
    expect(await head.text()).toBe('');
    const headRange = await pub(bin.id, { method: 'HEAD', headers: { Range: 'bytes=0-9' } });
    expect(headRange.status).toBe(206);
    expect(headRange.headers.get('content-range')).toBe(`bytes 0-9/${LEN}`);

    const etag = head.headers.get('etag')!;
    const notModified = await own(bin.id, { headers: { 'If-None-Match': etag } });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get('etag')).toBe(etag);
    expect((await pub(bin.id, { headers: { 'If-None-Match': `"other", ${etag}` } })).status).toBe(304);
    expect((await own(bin.id, { headers: { 'If-None-Match': '"other"' } })).status).toBe(200);
    // If-Range with another tag: the whole file
    const ifRange = await own(bin.id, { headers: { Range: 'bytes=0-9', 'If-Range': '"other"' } });
    expect(ifRange.status).toBe(200);
    expect((await own(bin.id, { headers: { Range: 'bytes=0-9', 'If-Range': etag } })).status).toBe(206);
  });

  it('never lets an uploaded HTML or SVG file run in the origin', async () => {
    for (const name of ['page.html', 'image.svg']) {
      for (const res of [await own(files[name]!.id), await pub(files[name]!.id)]) {
        expect(res.status).toBe(200);
        expect(res.headers.get('content-security-policy')).toBe('sandbox');
        expect(res.headers.get('x-content-type-options')).toBe('nosniff');
        expect(res.headers.get('content-disposition')).toMatch(/^attachment; /);
      }
    }
  });

  it('names files with an ASCII fallback and filename*, inline for safe types', async () => {
    await renameStoredFile(s, files['greeting.txt']!.id, 'Grüße "quoted".txt');
    const res = await own(files['greeting.txt']!.id);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(res.headers.get('content-disposition')).toBe(
      `inline; filename="Gru_e _quoted_.txt"; filename*=UTF-8''Gr%C3%BC%C3%9Fe%20%22quoted%22.txt`,
    );
  });

  it('answers 404 for files of other shares and shares of others, 401 without a token', async () => {
    const other = await shareWithFiles(s, token, [{ name: 'x.txt', content: 'x' }]);
    expect((await own(other.files['x.txt']!.id)).status).toBe(404);
    expect((await pub(other.files['x.txt']!.id)).status).toBe(404);
    expect((await fetchRaw(s, `/api/v2/sec/share/${shareId}/file/${bin.id}`)).status).toBe(401);
    await s.request('POST', '/api/v2/admin/account', { login: 'lee', state: 'Active', admin: false, password: 'lee-password' }, { token });
    const lee = await s.login('lee', 'lee-password');
    expect((await fetchRaw(s, `/api/v2/sec/share/${shareId}/file/${bin.id}`, { headers: { 'Service-Auth': lee } })).status).toBe(404);
    expect((await fetchRaw(s, `/api/v2/sec/share/${shareId}/zip`, { headers: { 'Service-Auth': lee } })).status).toBe(404);
  });
});

describe('a client that goes away', () => {
  /** Open file descriptors of this process (the server runs in it) on files below `dir`. */
  const openFilesBelow = (dir: string): number =>
    readdirSync('/proc/self/fd').filter((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`).startsWith(dir);
      } catch {
        return false;
      }
    }).length;

  const waitFor = async (cond: () => boolean, what: string): Promise<void> => {
    const until = Date.now() + 5000;
    while (!cond()) {
      if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  it('stops the store read of a file and of a ZIP', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pier-fs-store-'));
    const s = await startServer({
      config: { backend: { files: { 'default-store': 'filesystem', stores: { filesystem: { enabled: true, type: 'file-system', directory: dir } } } } },
    });
    try {
      const token = await s.login(ADMIN.login, ADMIN.password);
      const big = await shareWithFiles(s, token, [
        { name: 'big.bin', content: randomBytes(32 * 1024 * 1024) },
        { name: 'big2.bin', content: randomBytes(1024) },
      ]);
      expect(openFilesBelow(dir)).toBe(0);
      for (const path of [`/api/v2/sec/share/${big.id}/file/${big.files['big.bin']!.id}`, `/api/v2/sec/share/${big.id}/zip`]) {
        const ctl = new AbortController();
        const res = await fetchRaw(s, path, { headers: { 'Service-Auth': token }, signal: ctl.signal });
        expect(res.status).toBe(200);
        const reader = res.body!.getReader();
        await reader.read();
        // the server is reading the file while the client waits
        await waitFor(() => openFilesBelow(dir) === 1, 'the store read to start');
        ctl.abort();
        await reader.read().catch(() => undefined);
        await waitFor(() => openFilesBelow(dir) === 0, 'the store read to stop');
      }
      const again = await fetchRaw(s, `/api/v2/sec/share/${big.id}/file/${big.files['big2.bin']!.id}`, { headers: { 'Service-Auth': token } });
      expect(again.status).toBe(200);
      expect(s.logs()).not.toContain('"level":"error"');
    } finally {
      await s.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
