import { createServer, request as httpRequest } from 'node:http';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMpd, type MpdInstance } from '../../support/mpd.js';
import { playerConfig } from '../../support/mpd-server.js';
import { startServer, type TestServer } from '../../support/server.js';

const enc = (p: string) => p.split('/').map(encodeURIComponent).join('/');

/** A GET with the path sent exactly as written (fetch would normalise `..` and `%2e%2e`). */
const rawGet = (base: string, path: string): Promise<{ status: number; body: Buffer }> =>
  new Promise((resolve, reject) => {
    const u = new URL(base);
    const req = httpRequest({ host: u.hostname, port: u.port, path, method: 'GET' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });

describe('covers, booklets and custom content', () => {
  let mpd: MpdInstance;
  let s: TestServer;
  let custom: string;
  let thumbs: string;

  const get = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(s.url + path, { headers, redirect: 'manual' });
    return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
  };
  const size = async (buf: Buffer) => {
    const m = await sharp(buf).metadata();
    return [m.width, m.height];
  };

  beforeAll(async () => {
    mpd = await startMpd();
    custom = mkdtempSync(join(tmpdir(), 'pier-custom-'));
    mkdirSync(join(custom, 'sub'));
    writeFileSync(join(custom, 'index.html'), '<h1>custom</h1>');
    writeFileSync(join(custom, 'sub', 'a.txt'), 'hello');
    symlinkSync(mpd.library.outside, join(custom, 'out'));
    thumbs = join(mkdtempSync(join(tmpdir(), 'pier-thumbs-')), 'thumbnails');
    s = await startServer({
      config: {
        ...playerConfig(mpd, { access: 'open', player: { thumbnails: { directory: thumbs, 'max-parallel': 2 } } }),
        'custom-content': { enabled: true, directory: custom },
      },
    });
  });
  afterAll(async () => {
    await s?.stop();
    await mpd?.dispose();
    rmSync(custom, { recursive: true, force: true });
    rmSync(join(thumbs, '..'), { recursive: true, force: true });
  });

  it('serves the cover next to the songs of an album, with ETag, 304 and Cache-Control', async () => {
    const res = await get('/api/v1/cover/album?name=Blue%20Album');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.body.equals(readFileSync(join(mpd.library.music, 'Artist One/Blue Album/cover.jpg')))).toBe(true);
    expect(res.headers.get('cache-control')).toMatch(/max-age/);
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    const again = await get('/api/v1/cover/default/album?name=Blue%20Album', { 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it('finds the cover in the album folder above a disc folder, and in a disc sub-folder', async () => {
    const red = await get('/api/v1/cover/album?name=Red%20Album');
    expect(red.status).toBe(200);
    expect(red.headers.get('content-type')).toBe('image/png');
    expect(await size(red.body)).toEqual([300, 300]);
    const orange = await get(`/api/v1/cover/file/${enc('Various/Orange Album')}`);
    expect(orange.status).toBe(200);
    expect(orange.body.equals(readFileSync(join(mpd.library.music, 'Various/Orange Album/Disc 1/front.png')))).toBe(true);
  });

  it('falls back to the picture embedded in the song (readpicture)', async () => {
    const res = await get('/api/v1/cover/album?name=Purple%20Album');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(await size(res.body)).toEqual([500, 500]);
    const byFile = await get(`/api/v1/cover/file/${enc('Artist One/Purple Album/01 - Purple.flac')}`);
    expect(byFile.body.equals(res.body)).toBe(true);
  });

  it('serves a generated placeholder, distinct per album and the same every time', async () => {
    const a1 = await get('/api/v1/cover/album?name=Green%20Album');
    const a2 = await get('/api/v1/cover/album?name=Green%20Album');
    const b = await get('/api/v1/cover/album?name=No%20Such%20Album');
    expect(a1.status).toBe(200);
    expect(a1.headers.get('content-type')).toBe('image/png');
    expect(a1.body.equals(a2.body)).toBe(true);
    expect(a1.body.equals(b.body)).toBe(false);
    expect(await size(a1.body)).toEqual([256, 256]);
    expect(await size((await get('/api/v1/cover/album?name=Green%20Album&size=64')).body)).toEqual([64, 64]);
  });

  it('makes thumbnails of exactly N×N for larger covers, stores them once, serves small ones as they are', async () => {
    const big = await get('/api/v1/cover/album?name=Big%20Album&size=120');
    expect(big.status).toBe(200);
    expect(big.headers.get('content-type')).toBe('image/jpeg');
    expect(await size(big.body)).toEqual([120, 120]);
    // kept as the smallest configured size of at least 120 (128 by default), the answer scaled from it
    const files = readdirSync(thumbs).filter((f) => f.endsWith('-128-v2.jpg'));
    expect(files).toHaveLength(1);
    expect(readdirSync(thumbs).filter((f) => f.includes('-120'))).toEqual([]);
    expect(readdirSync(thumbs).filter((f) => f.startsWith('.tmp-'))).toEqual([]);
    const again = await get('/api/v1/cover/album?name=Big%20Album&size=120');
    expect(again.body.equals(big.body)).toBe(true);
    expect(again.headers.get('etag')).toBe(big.headers.get('etag'));
    const nonSquare = await get('/api/v1/cover/album?name=Blue%20Album&size=100');
    expect(await size(nonSquare.body)).toEqual([100, 100]);
    const small = await get('/api/v1/cover/album?name=Red%20Album&size=500');
    expect(await size(small.body)).toEqual([300, 300]);
    const aboveKept = await get('/api/v1/cover/album?name=Big%20Album&size=1600');
    expect(await size(aboveKept.body)).toEqual([1500, 1500]);
    const original = await get('/api/v1/cover/album?name=Big%20Album&size=');
    expect(await size(original.body)).toEqual([2000, 1500]);
    expect((await get('/api/v1/cover/album?name=Big%20Album&size=abc')).status).toBe(400);
    expect((await get('/api/v1/cover/album?name=Big%20Album&size=-5')).status).toBe(400);
  });

  // A cover whose shorter side is below the kept size (500×700 against 512) is kept too,
  // cropped, never enlarged; later requests at 512 or any smaller size are served from it.
  it('keeps the thumbnail of a cover smaller than the kept size, never enlarged, and serves later requests from it', async () => {
    const cover = `/api/v1/cover/file/${enc('Odd/Odd Album')}`;
    mkdirSync(thumbs, { recursive: true });
    const before = new Set(readdirSync(thumbs));
    const fresh = () => readdirSync(thumbs).filter((f) => !before.has(f));
    // a size below the kept one is scaled from the kept file, which is made once
    const at300 = await get(`${cover}?size=300`);
    expect(at300.status).toBe(200);
    expect(await size(at300.body)).toEqual([300, 300]);
    expect(fresh()).toHaveLength(1);
    const [kept] = fresh();
    expect(kept).toMatch(/-512\b/);
    expect(await size(readFileSync(join(thumbs, kept!)))).toEqual([500, 500]);
    const first = statSync(join(thumbs, kept!));
    for (const n of [512, 300, 400, 512]) {
      const res = await get(`${cover}?size=${n}`);
      expect(await size(res.body), String(n)).toEqual([Math.min(n, 500), Math.min(n, 500)]);
    }
    // a larger size is answered from the same file, at the short side
    expect(await size((await get(`${cover}?size=600`)).body)).toEqual([500, 500]);
    expect(fresh()).toEqual([kept]);
    const again = statSync(join(thumbs, kept!));
    expect([again.ino, again.mtimeMs]).toEqual([first.ino, first.mtimeMs]);
    // a file of the same bucket made by an earlier version (which enlarged) is never served
    const older = kept!.replace(/-v2\.jpg$/, '.jpg');
    expect(older).not.toBe(kept);
    writeFileSync(join(thumbs, older), await sharp({ create: { width: 512, height: 512, channels: 3, background: '#000000' } }).jpeg().toBuffer());
    rmSync(join(thumbs, kept!));
    try {
      expect(await size((await get(`${cover}?size=512`)).body)).toEqual([500, 500]);
    } finally {
      rmSync(join(thumbs, older));
    }
  });

  it('serves the original for a size above the thumbnail limit, as for any cover not larger than the size', async () => {
    for (const n of ['4097', '10000', '99999999999999999999']) {
      const res = await get(`/api/v1/cover/album?name=Big%20Album&size=${n}`);
      expect(res.status, n).toBe(200);
      expect(await size(res.body), n).toEqual([2000, 1500]);
    }
  });

  it('serves booklets, 404 when there is none', async () => {
    const res = await get('/api/v1/booklet/album?name=Blue%20Album');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.body.subarray(0, 5).toString()).toBe('%PDF-');
    expect(res.headers.get('content-disposition')).toContain('Booklet - Blue Album.pdf');
    expect((await get(`/api/v1/booklet/default/file/${enc('Artist One/Blue Album/01 - Song 1.flac')}`)).status).toBe(200);
    expect((await get('/api/v1/booklet/album?name=Red%20Album')).status).toBe(404);
  });

  it('accepts the file path with real slashes and with %2F', async () => {
    const a = await get(`/api/v1/cover/file/${enc('Artist One/Blue Album/01 - Song 1.flac')}`);
    const b = await get(`/api/v1/cover/file/${encodeURIComponent('Artist One/Blue Album/01 - Song 1.flac')}`);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(a.body.equals(b.body)).toBe(true);
    expect((await get(`/api/v1/cover/default/file/${enc('Artist One/Blue Album')}`)).status).toBe(200);
  });

  it('gives 404 for every path leading outside the music directory', async () => {
    const attempts = [
      '/api/v1/cover/file/../../../../etc/passwd',
      '/api/v1/cover/file/Artist%20One/../../../../etc/passwd',
      '/api/v1/cover/file/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
      '/api/v1/cover/file/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd',
      '/api/v1/cover/file/..%2F..%2Foutside%2Fcover.jpg',
      '/api/v1/booklet/file/..%2F..%2F..%2Fetc%2Fpasswd',
      '/api/v1/cover/file/escape-link',
      '/api/v1/cover/file/escape-link/cover.jpg',
      '/api/v1/cover/default/file/escape-link%2Fsecret.txt',
      '/api/v1/cover/file/Artist%20One%2FNo%20Such%20Album',
    ];
    for (const p of attempts) {
      const res = await rawGet(s.url, p);
      expect(res.status, p).toBe(404);
    }
  });

  it('never serves a cover that is a symbolic link leading outside', async () => {
    const res = await get(`/api/v1/cover/file/${enc('Various/Link Album/01 - Link.flac')}`);
    expect(res.status).toBe(200);
    expect(res.body.equals(readFileSync(join(mpd.library.outside, 'cover.jpg')))).toBe(false);
    expect(res.headers.get('content-type')).toBe('image/png'); // the placeholder
  });

  it('caches album lookups until clearcache (shared by covers and booklets)', async () => {
    const dir = join(mpd.library.music, 'Various/Green Album');
    expect((await get('/api/v1/booklet/album?name=Green%20Album')).status).toBe(404);
    writeFileSync(join(dir, 'booklet.pdf'), '%PDF-1.4\n%%EOF\n');
    try {
      expect((await get('/api/v1/booklet/album?name=Green%20Album')).status).toBe(404);
      const cleared = await s.request('POST', '/api/v1/cover/clearcache');
      expect(cleared.status).toBe(200);
      expect((await get('/api/v1/booklet/album?name=Green%20Album')).status).toBe(200);
      expect((await s.request('POST', '/api/v1/booklet/default/clearcache')).status).toBe(200);
    } finally {
      rmSync(join(dir, 'booklet.pdf'));
      await s.request('POST', '/api/v1/booklet/clearcache');
    }
  });

  it('answers 502 for an album lookup while the daemon is down', async () => {
    await s.request('POST', '/api/v1/cover/clearcache');
    await mpd.stop();
    try {
      const res = await get('/api/v1/cover/album?name=Blue%20Album');
      expect(res.status).toBe(502);
      // a file lookup needs no daemon when the cover is there
      expect((await get(`/api/v1/cover/file/${enc('Artist One/Blue Album')}`)).status).toBe(200);
    } finally {
      await mpd.start();
    }
    expect((await get('/api/v1/cover/album?name=Blue%20Album')).status).toBe(200);
  });

  // Booklets and covers were sent whole whatever the Range header: a PDF viewer seeking in a
  // booklet could not ask for a part, and an unsatisfiable range got the whole file.
  it('answers single ranges of booklets and covers with 206 and 416, as file downloads do', async () => {
    const whole = await get('/api/v1/booklet/album?name=Blue%20Album');
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    const part = await get('/api/v1/booklet/album?name=Blue%20Album', { Range: 'bytes=1-4' });
    expect(part.status).toBe(206);
    expect(part.body.toString()).toBe('PDF-');
    expect(part.headers.get('content-range')).toBe(`bytes 1-4/${whole.body.length}`);
    expect(part.headers.get('content-length')).toBe('4');
    expect(part.headers.get('etag')).toBe(whole.headers.get('etag'));
    const tail = await get('/api/v1/cover/album?name=Blue%20Album', { Range: 'bytes=-10' });
    const cover = readFileSync(join(mpd.library.music, 'Artist One/Blue Album/cover.jpg'));
    expect(tail.status).toBe(206);
    expect(tail.body.equals(cover.subarray(cover.length - 10))).toBe(true);
    const beyond = await get('/api/v1/booklet/album?name=Blue%20Album', { Range: `bytes=${whole.body.length}-` });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${whole.body.length}`);
  });

  // A thumbnail made on request is sent from memory; its ranges are cut from those bytes.
  it('answers a range of a thumbnail', async () => {
    const thumb = await get('/api/v1/cover/album?name=Blue%20Album&size=64');
    const part = await get('/api/v1/cover/album?name=Blue%20Album&size=64', { Range: 'bytes=2-9' });
    expect(part.status).toBe(206);
    expect(part.body.equals(thumb.body.subarray(2, 10))).toBe(true);
    expect(part.headers.get('content-range')).toBe(`bytes 2-9/${thumb.body.length}`);
  });

  // A missing booklet was a 404 without a body, unlike every other gateway 404.
  it('answers a missing booklet with the gateway error envelope', async () => {
    const res = await get('/api/v1/booklet/album?name=Red%20Album');
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body.toString())).toEqual({ success: false, type: 'Error', error: { message: expect.stringMatching(/not found/) } });
  });

  // /custom answered 304 only to an If-None-Match equal to its tag, not to a list of tags, a
  // weak tag or `*`, and sent whole files whatever the Range header.
  it('answers If-None-Match lists and ranges below /custom/', async () => {
    const first = await get('/custom/sub/a.txt');
    const etag = first.headers.get('etag')!;
    expect(first.headers.get('cache-control')).toBe('no-cache');
    for (const inm of [`"other", ${etag}`, `W/${etag}`, '*']) {
      const res = await get('/custom/sub/a.txt', { 'If-None-Match': inm });
      expect(res.status, inm).toBe(304);
      expect(res.body.length).toBe(0);
    }
    expect((await get('/custom/sub/a.txt', { 'If-None-Match': '"other"' })).status).toBe(200);
    const part = await get('/custom/sub/a.txt', { Range: 'bytes=1-3' });
    expect(part.status).toBe(206);
    expect(part.body.toString()).toBe('ell');
    expect(part.headers.get('content-range')).toBe('bytes 1-3/5');
    const head = await fetch(`${s.url}/custom/sub/a.txt`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('5');
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it('serves /custom/ from the configured directory, traversal-safe', async () => {
    const index = await get('/custom/');
    expect(index.status).toBe(200);
    expect(index.body.toString()).toBe('<h1>custom</h1>');
    expect(index.headers.get('content-type')).toMatch(/text\/html/);
    expect((await get('/custom/sub/a.txt')).body.toString()).toBe('hello');
    for (const p of ['/custom/../package.json', '/custom/%2e%2e/package.json', '/custom/sub%2F..%2F..%2Fpackage.json', '/custom/out/secret.txt', '/custom/nope.txt']) {
      expect((await rawGet(s.url, p)).status, p).toBe(404);
    }
  });
});

// A client walking through sizes 1..4096 must not fill the disk with a file per
// size and cover. Only the sizes of `player.thumbnails.sizes` are kept; any
// other size is scaled down from the smallest kept size at least as large (or
// from the original above the largest, then not kept), and every answer is
// still exactly size×size.
describe('thumbnails kept on disk', () => {
  it('keeps at most one file per configured size for a cover, whatever sizes are asked for', async () => {
    const mpd = await startMpd();
    const thumbs = join(mkdtempSync(join(tmpdir(), 'pier-thumbs-')), 'thumbnails');
    const s = await startServer({ config: playerConfig(mpd, { access: 'open', player: { thumbnails: { directory: thumbs } } }) });
    try {
      const buckets = s.config.player.thumbnails.sizes;
      // 50 distinct sizes below, at and above the kept sizes, up to the short side of the 2000×1500 original
      const sizes = Array.from({ length: 50 }, (_, i) => 17 + i * 29 + (i % 7));
      expect(new Set(sizes).size).toBe(50);
      expect(Math.max(...sizes)).toBeLessThanOrEqual(1500);
      expect(sizes.some((n) => n > Math.max(...buckets))).toBe(true);
      const etags = new Set<string>();
      for (const n of sizes) {
        const res = await fetch(`${s.url}/api/v1/cover/album?name=Big%20Album&size=${n}`);
        expect(res.status, String(n)).toBe(200);
        etags.add(res.headers.get('etag') ?? '');
        const m = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
        expect([m.width, m.height], String(n)).toEqual([n, n]);
      }
      expect(etags.size).toBe(50);
      const kept = readdirSync(thumbs, { withFileTypes: true }).filter((e) => e.isFile());
      expect(kept.length).toBeGreaterThan(0);
      expect(kept.length).toBeLessThanOrEqual(buckets.length);
      for (const f of kept) expect(buckets.map((b) => `-${b}-v2.jpg`).some((suffix) => f.name.endsWith(suffix)), f.name).toBe(true);
      // a kept size is served from its file, the same bytes every time
      const a = await fetch(`${s.url}/api/v1/cover/album?name=Big%20Album&size=${buckets[0]}`);
      const b = await fetch(`${s.url}/api/v1/cover/album?name=Big%20Album&size=${buckets[0]}`);
      expect(Buffer.from(await a.arrayBuffer()).equals(Buffer.from(await b.arrayBuffer()))).toBe(true);
    } finally {
      await s.stop();
      await mpd.dispose();
      rmSync(join(thumbs, '..'), { recursive: true, force: true });
    }
  });
});

describe('custom content disabled, thumbnails disabled', () => {
  it('answers 404 below /custom/ and ignores size', async () => {
    const mpd = await startMpd();
    const s = await startServer({ config: playerConfig(mpd, { access: 'open', player: { thumbnails: { enabled: false } } }) });
    try {
      expect((await fetch(`${s.url}/custom/`)).status).toBe(404);
      const res = await fetch(`${s.url}/api/v1/cover/album?name=Big%20Album&size=100`);
      const m = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
      expect([m.width, m.height]).toEqual([2000, 1500]);
    } finally {
      await s.stop();
      await mpd.dispose();
    }
  });
});

describe('placeholder-url', () => {
  it('fetches the placeholder with the album name URL-encoded, and draws one when the fetch fails', async () => {
    const mpd = await startMpd();
    const png = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#123456' } }).png().toBuffer();
    const seen: string[] = [];
    const avatar = createServer((req, res) => {
      seen.push(req.url ?? '');
      if (req.url?.includes('broken')) {
        res.writeHead(500).end();
        return;
      }
      res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': png.length }).end(png);
    });
    await new Promise<void>((r) => avatar.listen(0, '127.0.0.1', () => r()));
    const port = (avatar.address() as { port: number }).port;
    const s = await startServer({
      config: playerConfig(mpd, { access: 'open', player: { 'placeholder-url': `http://127.0.0.1:${port}/avatar/{{name}}.png` } }),
    });
    try {
      const res = await fetch(`${s.url}/api/v1/cover/album?name=${encodeURIComponent('No Cover & Co/1')}`);
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(png)).toBe(true);
      expect(seen).toEqual(['/avatar/No%20Cover%20%26%20Co%2F1.png']);
      const broken = await fetch(`${s.url}/api/v1/cover/album?name=broken`);
      expect(broken.status).toBe(200);
      const drawn = Buffer.from(await broken.arrayBuffer());
      expect(drawn.equals(png)).toBe(false);
      expect((await sharp(drawn).metadata()).width).toBe(256);
    } finally {
      await s.stop();
      avatar.close();
      await mpd.dispose();
    }
  });
});
