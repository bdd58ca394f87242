import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  count,
  eventually,
  fileIdOf,
  fileRows,
  form,
  newShare,
  randomBytesOf,
  raw,
  sha256,
  startUploadServer,
  storedBinaries,
  tusUpload,
  type UploadServer,
} from './support.js';

const VIRUS = 'The uploaded file contains a virus!';

describe('database-domain-checks (database store on SQLite)', () => {
  let s: UploadServer;
  beforeAll(async () => {
    s = await startUploadServer('database', {
      share: {
        'chunk-size': '64K',
        'database-domain-checks': [
          { enabled: false, native: 'never matched', message: 'unused' },
          { enabled: true, native: 'SAFE_BYTEA VIOLATES check', message: VIRUS },
        ],
      },
    });
  });
  afterAll(async () => s?.dispose());

  const withTrigger = async (fn: () => Promise<void>) => {
    // A store error the database raises itself, as a virus-checking domain would.
    s.sql((db) =>
      db.exec(`create trigger virus_check before insert on file_chunks
               when instr(cast(new.chunk_data as text), 'EICAR') > 0
               begin select raise(abort, 'value for domain safe_bytea violates check constraint'); end`),
    );
    try {
      await fn();
    } finally {
      s.sql((db) => db.exec('drop trigger virus_check'));
    }
  };
  const infected = Buffer.concat([randomBytesOf(100 * 1024, 3), Buffer.from('EICAR'), randomBytesOf(1000, 4)]);

  it('answers 422 with the configured message on tus, and the file does not count as complete', async () => {
    const shareId = await newShare(s, s.token);
    await withTrigger(async () => {
      const created = await raw(s, 'POST', `/api/v2/sec/upload/${shareId}/files/tus`, {
        'Service-Auth': s.token,
        'Tus-Resumable': '1.0.0',
        'Upload-Length': String(infected.length),
      });
      const patch = await fetch(created.headers.get('location')!, {
        method: 'PATCH',
        headers: { 'Service-Auth': s.token, 'Tus-Resumable': '1.0.0', 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' },
        body: infected,
      });
      expect(patch.status).toBe(422);
      expect((await patch.text()).trim()).toBe(VIRUS);
    });
    const [row] = fileRows(s, shareId);
    expect(row!.real_size).toBeLessThan(row!.length);
    expect(row!.checksum).toBe('');
  });

  it('answers 422 with the configured message on multipart, and nothing of the request remains', async () => {
    const before = { shares: count(s, 'shares'), files: count(s, 'file_meta'), binaries: storedBinaries(s) };
    await withTrigger(async () => {
      const r = await raw(s, 'POST', '/api/v2/sec/upload', { 'Service-Auth': s.token }, form({ validity: 60_000, maxViews: 1 }, [
        { name: 'clean.bin', data: randomBytesOf(1000, 1) },
        { name: 'infected.bin', data: infected },
      ]));
      expect(r.status).toBe(422);
      expect(await r.json()).toEqual({ success: false, message: VIRUS, code: 'error.domain-check' });
    });
    expect({ shares: count(s, 'shares'), files: count(s, 'file_meta'), binaries: storedBinaries(s) }).toEqual(before);
  });
});

describe('checksums', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'pier-checksums-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('are found again after a restart: complete files with an empty checksum are queued at start-up', async () => {
    const data = randomBytesOf(700 * 1024, 21);
    let s = await startUploadServer('filesystem', {}, { dataDir });
    const shareId = await newShare(s, s.token);
    const fid = fileIdOf(await tusUpload(s, s.token, shareId, data, { chunkSize: 256 * 1024 }));
    await eventually(() => fileRows(s, shareId)[0]?.checksum);
    await s.stop();
    // as if the server had stopped before the queue got to it
    s.sql((db) => db.prepare(`update file_meta set checksum = '' where file_id = (select file_id from share_files where id = ?)`).run(fid));
    s = await startUploadServer('filesystem', {}, { dataDir });
    try {
      const row = await eventually(() => fileRows(s, shareId).find((r) => r.checksum !== ''));
      expect(row.checksum).toBe(sha256(data));
    } finally {
      await s.stop();
    }
  });

  it('are computed by the queue when the upload was resumed by another process, and not computed for incomplete files', async () => {
    const data = randomBytesOf(600 * 1024, 22);
    let s = await startUploadServer('database', {}, { dataDir });
    const shareId = await newShare(s, s.token);
    const created = await raw(s, 'POST', `/api/v2/sec/upload/${shareId}/files/tus`, {
      'Service-Auth': s.token,
      'Tus-Resumable': '1.0.0',
      'Upload-Length': String(data.length),
    });
    const path = new URL(created.headers.get('location')!).pathname;
    const patch = (srv: UploadServer, from: number, to: number) =>
      raw(srv, 'PATCH', path, { 'Service-Auth': srv.token, 'Tus-Resumable': '1.0.0', 'Upload-Offset': String(from), 'Content-Type': 'application/offset+octet-stream' }, data.subarray(from, to));
    expect((await patch(s, 0, 200_000)).status).toBe(204);
    await s.stop();
    s = await startUploadServer('database', {}, { dataDir });
    try {
      // letting the queue run a while is the test: it computes no checksum of an incomplete file
      await new Promise((r) => setTimeout(r, 200));
      expect(fileRows(s, shareId)[0]!.checksum).toBe('');
      expect((await patch(s, 200_000, data.length)).status).toBe(204);
      const row = await eventually(() => fileRows(s, shareId).find((r) => r.checksum !== ''));
      expect(row.checksum).toBe(sha256(data));
    } finally {
      await s.stop();
    }
  });
});
