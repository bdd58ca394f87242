// Two servers on one database, a client whose chunks a balancer spreads over both. Before, a
// server kept an upload's database lock for 500 ms after each request, so every chunk that
// landed on the other server waited that long; HEAD took the lock too (423 while another server
// wrote); and a writer whose client stalled kept renewing its lock, so the client, retrying on
// the other server, waited for the connection's idle timeout (a minute). The end of such a
// writer was logged as "Unexpected tus error".
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { download, fileIdOf, newShare, raw, startUploadServer, type UploadServer } from './support.js';

const IDLE_MS = 1000;
const LOCK_WAIT_MS = 8000;

describe('an upload handed from one server to another', () => {
  let a: UploadServer;
  let b: UploadServer;
  beforeAll(async () => {
    const config = { limits: { 'upload-lock-wait': `${LOCK_WAIT_MS} ms`, 'upload-idle-timeout': `${IDLE_MS} ms` } };
    a = await startUploadServer('database', {}, { config });
    b = await startUploadServer('database', {}, { dataDir: a.dataDir, config });
  });
  afterAll(async () => {
    await b.dispose();
    await a.dispose();
  });

  const tus = (s: UploadServer, headers: Record<string, string> = {}) => ({ 'Service-Auth': s.token, 'Tus-Resumable': '1.0.0', ...headers });
  const createUpload = async (size: number) => {
    const shareId = await newShare(a, a.token);
    const created = await raw(a, 'POST', `/api/v2/sec/upload/${shareId}/files/tus`, tus(a, { 'Upload-Length': String(size) }));
    expect(created.status).toBe(201);
    return { shareId, path: new URL(created.headers.get('location')!).pathname };
  };
  const patch = (s: UploadServer, path: string, offset: number, body: Buffer) =>
    raw(s, 'PATCH', path, tus(s, { 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' }), new Uint8Array(body));
  const lockRows = () => a.sql((db) => db.prepare('select id, owner from upload_locks').all());

  it('frees the database lock when a request ends, so the next chunk on the other server need not wait', async () => {
    const chunk = 16 * 1024;
    const bytes = Buffer.alloc(6 * chunk, 0x41);
    const { shareId, path } = await createUpload(bytes.length);
    for (let i = 0; i < 6; i++) {
      const res = await patch(i % 2 === 0 ? a : b, path, i * chunk, bytes.subarray(i * chunk, (i + 1) * chunk));
      expect(res.status).toBe(204);
      // nothing is held once the answer is there
      expect(lockRows()).toEqual([]);
    }
    expect((await download(b, b.token, shareId, fileIdOf(path))).equals(bytes)).toBe(true);
  });

  it('answers HEAD at once while another server writes, without touching its lock', async () => {
    const { shareId, path } = await createUpload(1024);
    const id = `${shareId}/${fileIdOf(path)}`;
    a.sql((db) => db.prepare('insert into upload_locks (id, owner, expires) values (?, ?, ?)').run(id, 'other-server', Date.now() + 600_000));
    const started = Date.now();
    const head = await raw(b, 'HEAD', path, tus(b));
    expect(head.status).toBe(200);
    expect(head.headers.get('upload-offset')).toBe('0');
    expect(Date.now() - started).toBeLessThan(1000);
    expect(lockRows()).toEqual([{ id, owner: 'other-server' }]);
    a.sql((db) => db.prepare('delete from upload_locks').run());
  });

  it('lets the other server take over from a writer whose client stalled, after the upload idle timeout', async () => {
    const size = 64 * 1024;
    const { shareId, path } = await createUpload(size);
    const bytes = Buffer.alloc(size, 0x62);
    // a client sends half of its chunk to server a, then nothing more
    const stalled = request(a.url + path, {
      method: 'PATCH',
      headers: { ...tus(a, { 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' }), 'Content-Length': String(size) },
    });
    stalled.on('error', () => undefined);
    stalled.on('response', (res) => res.resume());
    stalled.write(bytes.subarray(0, size / 2));
    // the client tries again on server b from the offset b reports
    let offset = 0;
    const started = Date.now();
    for (;;) {
      const head = await raw(b, 'HEAD', path, tus(b));
      offset = Number(head.headers.get('upload-offset'));
      if (offset === size / 2 || Date.now() - started > 3000) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(offset).toBe(size / 2);
    const res = await patch(b, path, offset, bytes.subarray(offset));
    expect(res.status).toBe(204);
    // well before the lock wait (and the connection's idle timeout) is over
    expect(Date.now() - started).toBeLessThan(IDLE_MS + 3000);
    stalled.destroy();
    expect((await download(a, a.token, shareId, fileIdOf(path))).equals(bytes)).toBe(true);
    // the stalled writer's end is logged as what it is
    expect(a.logs()).toContain('stalled');
    expect(a.logs()).not.toContain('Unexpected tus error');
    expect(a.logs()).not.toContain('not reachable');
  });
});

// A chunk whose client went quiet until the connection's idle timeout cut it was logged as
// "A service the server depends on (file store, database) is not reachable": the request's
// own reset read as an outage of the database.
describe('a tus write cut by the connection idle timeout', () => {
  let s: UploadServer;
  beforeAll(async () => {
    s = await startUploadServer('database', {}, { config: { limits: { 'idle-timeout': '1 second', 'upload-idle-timeout': '30 seconds' } } });
  });
  afterAll(() => s.dispose());

  it('logs a write that a newer request for the upload ended as taken over, not as an error', async () => {
    const shareId = await newShare(s, s.token);
    const size = 64 * 1024;
    const created = await raw(s, 'POST', `/api/v2/sec/upload/${shareId}/files/tus`, { 'Service-Auth': s.token, 'Tus-Resumable': '1.0.0', 'Upload-Length': String(size) });
    const path = new URL(created.headers.get('location')!).pathname;
    const headers = { 'Service-Auth': s.token, 'Tus-Resumable': '1.0.0', 'Content-Type': 'application/offset+octet-stream' };
    const old = request(s.url + path, { method: 'PATCH', headers: { ...headers, 'Upload-Offset': '0', 'Content-Length': String(size) } });
    const oldEnded = new Promise<void>((resolve) => {
      old.on('error', () => resolve());
      old.on('close', () => resolve());
    });
    old.write(Buffer.alloc(1000, 0x64));
    await new Promise((r) => setTimeout(r, 200));
    // the client gave up on its first request and sends the upload again from the start
    const again = await raw(s, 'PATCH', path, { ...headers, 'Upload-Offset': '0' }, new Uint8Array(Buffer.alloc(size, 0x65)));
    await oldEnded;
    // the first request kept its 1000 bytes before it ended, so the new one is refused and resumes
    expect(again.status).toBe(409);
    const rest = await raw(s, 'PATCH', path, { ...headers, 'Upload-Offset': '1000' }, new Uint8Array(Buffer.alloc(size - 1000, 0x65)));
    expect(rest.status).toBe(204);
    expect(s.logs()).toContain('taken over by a newer request');
    expect(s.logs()).not.toContain('not reachable');
    expect(s.logs()).not.toContain('Unexpected tus error');
  });

  it('keeps the bytes received and logs the drop as the client’s, not as an outage', async () => {
    const shareId = await newShare(s, s.token);
    const size = 64 * 1024;
    const created = await raw(s, 'POST', `/api/v2/sec/upload/${shareId}/files/tus`, { 'Service-Auth': s.token, 'Tus-Resumable': '1.0.0', 'Upload-Length': String(size) });
    const path = new URL(created.headers.get('location')!).pathname;
    const req = request(s.url + path, {
      method: 'PATCH',
      headers: { 'Service-Auth': s.token, 'Tus-Resumable': '1.0.0', 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream', 'Content-Length': String(size) },
    });
    const closed = new Promise<void>((resolve) => {
      req.on('error', () => resolve());
      req.on('close', () => resolve());
    });
    req.write(Buffer.alloc(1000, 0x63));
    await closed;
    const offset = async () => Number((await raw(s, 'HEAD', path, { 'Service-Auth': s.token, 'Tus-Resumable': '1.0.0' })).headers.get('upload-offset'));
    expect(await offset()).toBe(1000);
    expect(s.logs()).toContain('the client closed its connection or it went idle');
    expect(s.logs()).not.toContain('not reachable');
    expect(s.logs()).not.toContain('Unexpected tus error');
  });
});
