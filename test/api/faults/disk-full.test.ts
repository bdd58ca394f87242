/**
 * The disk holding the files runs full: uploads fail with 507 Insufficient
 * Storage, nothing is counted as complete, a multipart upload leaves nothing
 * behind, and the server goes on answering. The test mounts small tmpfs file
 * systems (CI runs as root).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startServer, type Json, type TestServer } from '../../support/server.js';

const mountTmpfs = (dir: string, size: string): void => {
  if (process.getuid?.() !== 0) {
    throw new Error('The disk-full tests mount a tmpfs and need root (as in CI): run the suite as root.');
  }
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', dir]);
};
const unmount = (dir: string) => {
  try {
    execFileSync('umount', [dir]);
  } catch {
    // already gone
  }
};

const filesBelow = (dir: string): string[] =>
  readdirSync(dir, { recursive: true }).map(String).filter((f) => statSync(join(dir, f)).isFile());

describe.each([
  ['database', 'the data directory (SQLite with the file chunks)'],
  ['file-system', 'the received-files folder'],
] as const)('a full disk under the %s store', (kind, what) => {
  let root: string;
  let full: string;
  let s: TestServer;
  let token: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'pier-full-'));
    full = join(root, 'small');
    execFileSync('mkdir', ['-p', full]);
    // Large enough for the empty database with every migration and a share row, far too small for the
    // 12 MiB upload. When the disk fills so exactly that even removing the rows cannot be written, the
    // markers of the request remove them later (crash.test.ts); this test pins the immediate case.
    mountTmpfs(full, '8m');
    const dataDir = kind === 'database' ? full : join(root, 'data');
    execFileSync('mkdir', ['-p', dataDir]);
    const config: Json = {
      'rate-limit': { enabled: false },
      backend: {
        share: { 'chunk-size': '256K' },
        files:
          kind === 'database'
            ? { 'default-store': 'database' }
            : { 'default-store': 'filesystem', stores: { filesystem: { enabled: true, directory: join(full, 'received') } } },
      },
    };
    s = await startServer({ dataDir, config });
    token = await s.login(ADMIN.login, ADMIN.password);
  });
  afterAll(async () => {
    await s?.stop();
    unmount(full);
    rmSync(root, { recursive: true, force: true });
  });

  const newShare = async () =>
    (await s.request<{ id: string }>('POST', '/api/v2/sec/upload/new', { name: 'full', validity: 86_400_000, maxViews: 3, description: null, password: null }, { token })).body.id;

  it(`answers 507 when ${what} is full and counts nothing as complete`, async () => {
    const shareId = await newShare();
    const size = 12 * 1024 * 1024;
    const created = await fetch(`${s.url}/api/v2/sec/upload/${shareId}/files/tus`, {
      method: 'POST',
      headers: { 'Service-Auth': token, 'Tus-Resumable': '1.0.0', 'Upload-Length': String(size) },
    });
    expect(created.status).toBe(201);
    const url = created.headers.get('location')!;
    const res = await fetch(url, {
      method: 'PATCH',
      headers: { 'Service-Auth': token, 'Tus-Resumable': '1.0.0', 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' },
      body: new Uint8Array(size).fill(7),
    });
    expect(res.status).toBe(507);
    expect(await res.text()).toMatch(/no space left/i);
    const detail = await s.request<{ files: Array<{ size: number; storedSize: number; checksum: string }> }>('GET', `/api/v2/sec/share/${shareId}`, undefined, { token });
    expect(detail.body.files).toHaveLength(1);
    expect(detail.body.files[0]!.storedSize).toBeLessThan(size);
    expect(detail.body.files[0]!.checksum).toBe('');
    // the server goes on answering
    expect((await s.request('GET', '/api/v2/open/info/appconfig')).status).toBe(200);
    // give the upload up (on a full SQLite file even that may be refused; the test tidies up either way)
    const del = await fetch(url, { method: 'DELETE', headers: { 'Service-Auth': token, 'Tus-Resumable': '1.0.0' } });
    expect([204, 507]).toContain(del.status);
  });

  it('answers 507 to a multipart upload that does not fit, leaving neither share nor file', async () => {
    const before = (await s.request<{ items: unknown[] }>('GET', '/api/v2/sec/share/search', undefined, { token })).body.items.length;
    const form = new FormData();
    form.append('meta', JSON.stringify({ name: 'too big', validity: 86_400_000, maxViews: 3 }));
    form.append('file', new Blob([new Uint8Array(12 * 1024 * 1024).fill(9)]), 'big.bin');
    const res = await fetch(`${s.url}/api/v2/sec/upload`, { method: 'POST', headers: { 'Service-Auth': token }, body: form });
    expect(res.status).toBe(507);
    const after = (await s.request<{ items: unknown[] }>('GET', '/api/v2/sec/share/search', undefined, { token })).body.items.length;
    expect(after).toBe(before);
    if (kind === 'file-system') expect(filesBelow(join(full, 'received'))).toEqual([]);
  });
});
