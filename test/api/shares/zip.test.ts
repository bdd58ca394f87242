import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { fetchRaw, publish, renameStoredFile, shareWithFiles, withDatabase, type SharedFile } from '../../support/share-fixtures.js';
import { ADMIN, startServer, type TestServer } from '../../support/server.js';

interface Entry {
  name: string;
  method: number;
  data: Buffer;
}

const STORED = 0;
const DEFLATED = 8;

/** Every entry of a ZIP, read back with yauzl (which also checks each CRC). */
const unzip = (zip: Buffer): Promise<Entry[]> =>
  new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true, strictFileNames: true, validateEntrySizes: true }, (err, zf) => {
      if (err) return reject(err);
      const out: Entry[] = [];
      zf.on('error', reject);
      zf.on('end', () => resolve(out));
      zf.on('entry', (e: yauzl.Entry) => {
        zf.openReadStream(e, (err2, rs) => {
          if (err2) return reject(err2);
          const chunks: Buffer[] = [];
          rs.on('data', (c: Buffer) => chunks.push(c));
          rs.on('error', reject);
          rs.on('end', () => {
            out.push({ name: e.fileName, method: e.compressionMethod, data: Buffer.concat(chunks) });
            zf.readEntry();
          });
        });
      });
      zf.readEntry();
    });
  });

describe('ZIP downloads', () => {
  let s: TestServer;
  let token: string;
  let shareId: string;
  let pid: string;
  let files: SharedFile[];
  const random = randomBytes(300 * 1024);
  const zeros = Buffer.alloc(300 * 1024);
  const text = 'All work and no play makes Jack a dull boy.\n'.repeat(2000);
  beforeAll(async () => {
    s = await startServer();
    token = await s.login(ADMIN.login, ADMIN.password);
    const share = await shareWithFiles(
      s,
      token,
      [
        { name: 'a.txt', content: text, type: 'text/plain' },
        { name: 'a.txt', content: 'second', type: 'text/plain' },
        { name: 'evil.txt', content: 'evil', type: 'text/plain' },
        { name: 'random.bin', content: random },
        { name: 'zeros.bin', content: zeros },
        { name: 'packed.zip', content: zeros.subarray(0, 1000), type: 'application/zip' },
        { name: 'small.bin', content: 'tiny' },
      ],
      { name: 'My Files' },
    );
    shareId = share.id;
    files = share.list;
    // The upload routes clean names; older data may not be clean.
    await renameStoredFile(s, files[2]!.id, '../../evil.txt');
    pid = await publish(s, token, shareId);
  });
  afterAll(() => s.stop());

  const ownZip = async (qs = '') => fetchRaw(s, `/api/v2/sec/share/${shareId}/zip${qs}`, { headers: { 'Service-Auth': token } });

  it('streams every complete file with unique, safe names, stored or deflated by content', async () => {
    const res = await ownZip();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="My Files.zip"; filename*=UTF-8''My%20Files.zip`);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const entries = await unzip(Buffer.from(await res.arrayBuffer()));
    const byName = Object.fromEntries(entries.map((e) => [e.name, e]));
    expect(entries.map((e) => e.name)).toEqual(['a.txt', 'a (1).txt', '_._evil.txt', 'random.bin', 'zeros.bin', 'packed.zip', 'small.bin']);
    for (const e of entries) {
      expect(e.name).not.toMatch(/[/\\]/);
      expect(e.name).not.toContain('..');
    }
    expect(byName['a.txt']!.data.toString()).toBe(text);
    expect(byName['a.txt']!.method).toBe(DEFLATED);
    expect(byName['a (1).txt']!.data.toString()).toBe('second');
    expect(byName['_._evil.txt']!.data.toString()).toBe('evil');
    // random bytes do not shrink: stored, not deflated
    expect(byName['random.bin']!.method).toBe(STORED);
    expect(byName['random.bin']!.data.equals(random)).toBe(true);
    expect(byName['zeros.bin']!.method).toBe(DEFLATED);
    expect(byName['zeros.bin']!.data.equals(zeros)).toBe(true);
    // an archive type is stored even when it would shrink
    expect(byName['packed.zip']!.method).toBe(STORED);
    expect(byName['small.bin']!.data.toString()).toBe('tiny');
  });

  it('takes a repeated file selection and ignores unknown ids', async () => {
    const res = await ownZip(`?file=${files[3]!.id}&file=${files[1]!.id}&file=unknown&file=bad%20id`);
    expect(res.status).toBe(200);
    const entries = await unzip(Buffer.from(await res.arrayBuffer()));
    expect(entries.map((e) => e.name)).toEqual(['a.txt', 'random.bin']);
    expect(entries[0]!.data.toString()).toBe('second');
    const none = await unzip(Buffer.from(await (await ownZip('?file=unknown')).arrayBuffer()));
    expect(none).toEqual([]);
  });

  it('serves the public ZIP named by the share, without private data', async () => {
    const res = await fetchRaw(s, `/api/v2/open/share/${pid}/zip?file=${files[6]!.id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain('filename="My Files.zip"');
    expect((await unzip(Buffer.from(await res.arrayBuffer()))).map((e) => e.name)).toEqual(['small.bin']);
    expect((await fetchRaw(s, `/api/v2/open/share/unknown/zip`)).status).toBe(404);
  });

  it('leaves out incomplete files', async () => {
    const { id, list } = await shareWithFiles(s, token, [
      { name: 'done.txt', content: 'done' },
      { name: 'partial.txt', content: 'partial' },
    ]);
    await withDatabase(s, (db) => db.updateTable('share_files').set({ real_size: 3 }).where('id', '=', list[1]!.id).execute());
    const res = await fetchRaw(s, `/api/v2/sec/share/${id}/zip`, { headers: { 'Service-Auth': token } });
    expect((await unzip(Buffer.from(await res.arrayBuffer()))).map((e) => e.name)).toEqual(['done.txt']);
    // named by the share id when the share has no name
    expect(res.headers.get('content-disposition')).toContain(`filename="${id}.zip"`);
  });

  it('answers HEAD with the headers alone, without reading any file', async () => {
    const share = await shareWithFiles(s, token, [{ name: 'gone.txt', content: text, type: 'text/plain' }]);
    // the bytes are gone: building the archive would fail at once
    await withDatabase(s, async (db) => {
      const { file_id } = await db.selectFrom('share_files').select('file_id').where('id', '=', share.list[0]!.id).executeTakeFirstOrThrow();
      await db.deleteFrom('file_chunks').where('file_id', '=', file_id).execute();
    });
    const url = `/api/v2/sec/share/${share.id}/zip`;
    const head = await fetchRaw(s, url, { method: 'HEAD', headers: { 'Service-Auth': token } });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('application/zip');
    expect(head.headers.get('content-disposition')).toContain('.zip');
    expect((await head.arrayBuffer()).byteLength).toBe(0);
    expect((await fetchRaw(s, url, { headers: { 'Service-Auth': token } })).status).toBe(500);
  });

  it('answers 404 for the shares of others and 401 without a token', async () => {
    expect((await fetchRaw(s, `/api/v2/sec/share/${shareId}/zip`)).status).toBe(401);
    expect((await fetchRaw(s, `/api/v2/sec/share/unknown/zip`, { headers: { 'Service-Auth': token } })).status).toBe(404);
  });
});

describe('zip-max-size', () => {
  it('disables ZIP downloads at 0', async () => {
    const s = await startServer({ config: { backend: { share: { 'zip-max-size': 0 } } } });
    try {
      const token = await s.login(ADMIN.login, ADMIN.password);
      const { id } = await shareWithFiles(s, token, [{ name: 'a.txt', content: 'a' }]);
      const pid = await publish(s, token, id);
      expect((await fetchRaw(s, `/api/v2/sec/share/${id}/zip`, { headers: { 'Service-Auth': token } })).status).toBe(404);
      expect((await fetchRaw(s, `/api/v2/open/share/${pid}/zip`)).status).toBe(404);
    } finally {
      await s.stop();
    }
  });

  it('refuses a selection above the limit with 404', async () => {
    const s = await startServer({ config: { backend: { share: { 'zip-max-size': 1000 } } } });
    try {
      const token = await s.login(ADMIN.login, ADMIN.password);
      const { id, list } = await shareWithFiles(s, token, [
        { name: 'a.bin', content: Buffer.alloc(600) },
        { name: 'b.bin', content: Buffer.alloc(600) },
      ]);
      const zip = (qs: string) => fetchRaw(s, `/api/v2/sec/share/${id}/zip${qs}`, { headers: { 'Service-Auth': token } });
      expect((await zip('')).status).toBe(404);
      expect((await zip(`?file=${list[0]!.id}&file=${list[1]!.id}`)).status).toBe(404);
      const one = await zip(`?file=${list[0]!.id}`);
      expect(one.status).toBe(200);
      expect((await unzip(Buffer.from(await one.arrayBuffer()))).map((e) => e.name)).toEqual(['a.bin']);
    } finally {
      await s.stop();
    }
  });
});
