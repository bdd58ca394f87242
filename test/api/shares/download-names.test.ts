// Regression: names reached browsers and archives uncleaned. A stored name of
// fullwidth dots and slash (`．．／x`) was sent as `filename="../x"` in the ASCII
// fallback of `Content-Disposition`, and bidi controls (U+202E makes
// `invoice\u202Etxt.exe` read as `invoiceexe.txt`) were kept at upload (multipart
// and tus) and sent in `filename*` and in ZIP entry names.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { fetchRaw, publish, renameStoredFile, shareDetail, shareWithFiles } from '../../support/share-fixtures.js';
import { ADMIN, startServer, type TestServer } from '../../support/server.js';

const spoofed = 'invoice\u202Etxt.exe';
const bidiName = '\u2066a\u200fb\u061c\u202a.txt';
// eslint-disable-next-line no-control-regex -- looking for control characters is the point
const CONTROL_OR_BIDI = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** The entry names of a ZIP. */
const entryNames = (zip: Buffer): Promise<string[]> =>
  new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (err, zf) => {
      if (err) return reject(err);
      const names: string[] = [];
      zf.on('error', reject);
      zf.on('end', () => resolve(names));
      zf.on('entry', (e: yauzl.Entry) => {
        names.push(e.fileName);
        zf.readEntry();
      });
      zf.readEntry();
    });
  });

/** The `filename*` of a `Content-Disposition`, decoded. */
const extName = (header: string): string => decodeURIComponent(/filename\*=UTF-8''(.*)$/.exec(header)![1]!);
const fallbackName = (header: string): string => /filename="([^"]*)"/.exec(header)![1]!;

describe('download names', () => {
  let s: TestServer;
  let token: string;
  beforeAll(async () => {
    s = await startServer();
    token = await s.login(ADMIN.login, ADMIN.password);
  });
  afterAll(() => s.stop());

  it('stores names without bidi or control characters, from multipart and tus uploads', async () => {
    const { id, list } = await shareWithFiles(s, token, [
      { name: spoofed, content: 'x' },
      { name: bidiName, content: 'y' },
    ]);
    const tus = await fetch(`${s.url}/api/v2/sec/upload/${id}/files/tus`, {
      method: 'POST',
      headers: {
        'Service-Auth': token,
        'Tus-Resumable': '1.0.0',
        'Service-File-Length': '1',
        'Service-File-Name': encodeURIComponent('tus\u202egpj.exe'),
        'Content-Type': 'application/offset+octet-stream',
      },
      body: 'z',
    });
    expect(tus.status).toBe(201);
    expect(list.map((f) => f.filename)).toEqual(['invoicetxt.exe', 'ab.txt']);
    const names = (await shareDetail(s, token, id)).files.map((f) => f.filename).sort();
    expect(names).toEqual(['ab.txt', 'invoicetxt.exe', 'tusgpj.exe']);
  });

  it('sends a fallback without separators or leading dots and names without bidi controls', async () => {
    const { id, files } = await shareWithFiles(s, token, [
      { name: 'a.bin', content: 'a' },
      { name: 'b.bin', content: 'b' },
      { name: 'c.bin', content: 'c' },
    ]);
    // names written by older versions or other tools: the download code cleans them again
    await renameStoredFile(s, files['a.bin']!.id, '．．／x');
    await renameStoredFile(s, files['b.bin']!.id, spoofed);
    await renameStoredFile(s, files['c.bin']!.id, '..／..／etc／passwd');
    const pid = await publish(s, token, id);

    for (const [fid, expectedExt] of [
      [files['a.bin']!.id, '．．／x'],
      [files['b.bin']!.id, 'invoicetxt.exe'],
      [files['c.bin']!.id, '..／..／etc／passwd'],
    ] as const) {
      for (const path of [`/api/v2/sec/share/${id}/file/${fid}`, `/api/v2/open/share/${pid}/file/${fid}`]) {
        const res = await fetchRaw(s, path, { headers: { 'Service-Auth': token } });
        expect(res.status).toBe(200);
        const header = res.headers.get('content-disposition')!;
        const fallback = fallbackName(header);
        expect(fallback, header).not.toMatch(/[/\\]/);
        expect(fallback.startsWith('.'), header).toBe(false);
        expect(extName(header)).toBe(expectedExt);
        expect(header).not.toMatch(CONTROL_OR_BIDI);
      }
    }
    const folded = await fetchRaw(s, `/api/v2/sec/share/${id}/file/${files['a.bin']!.id}`, { headers: { 'Service-Auth': token } });
    expect(fallbackName(folded.headers.get('content-disposition')!)).toBe('___x');
  });

  it('writes ZIP entries and the ZIP name without bidi controls', async () => {
    const { id, files } = await shareWithFiles(s, token, [{ name: 'a.txt', content: 'a' }, { name: 'b.txt', content: 'b' }], { name: 'My\u202e Files' });
    await renameStoredFile(s, files['a.txt']!.id, spoofed);
    await renameStoredFile(s, files['b.txt']!.id, 'invoice\u2067txt.exe');
    const res = await fetchRaw(s, `/api/v2/sec/share/${id}/zip`, { headers: { 'Service-Auth': token } });
    expect(res.status).toBe(200);
    const header = res.headers.get('content-disposition')!;
    expect(header).toBe(`attachment; filename="My Files.zip"; filename*=UTF-8''My%20Files.zip`);
    const names = await entryNames(Buffer.from(await res.arrayBuffer()));
    expect(names).toEqual(['invoicetxt.exe', 'invoicetxt (1).exe']);
  });
});
