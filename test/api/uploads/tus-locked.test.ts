// An upload whose lock another server holds: every tus request that changes it (PATCH, POST
// append, DELETE) answers 423 with a text body once `limits.upload-lock-wait` is over, and stores
// nothing. Before, a PATCH waited 30 s (the test runner gave up first) and DELETE ended in a 500.
// HEAD only reads the offset and takes no lock (see lock-handover.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileIdOf, newShare, raw, startUploadServer, type UploadServer } from './support.js';

const WAIT = 1500;

describe('tus requests to an upload another server is writing', () => {
  let s: UploadServer;
  beforeAll(async () => {
    s = await startUploadServer('database', {}, { config: { limits: { 'upload-lock-wait': `${WAIT} ms` } } });
  });
  afterAll(() => s.dispose());

  const size = 4 * 1024 * 1024;
  const tus = (headers: Record<string, string> = {}) => ({ 'Service-Auth': s.token, 'Tus-Resumable': '1.0.0', ...headers });
  const lockRows = () => s.sql((db) => db.prepare('select id, owner from upload_locks').all());

  /** A new upload of `size` bytes whose lock "another server" holds for ten minutes. */
  const lockedUpload = async () => {
    const shareId = await newShare(s, s.token);
    const created = await raw(s, 'POST', `/api/v2/sec/upload/${shareId}/files/tus`, tus({ 'Upload-Length': String(size) }));
    expect(created.status).toBe(201);
    const path = new URL(created.headers.get('location')!).pathname;
    const id = `${shareId}/${fileIdOf(path)}`;
    s.sql((db) => db.prepare('insert or replace into upload_locks (id, owner, expires) values (?, ?, ?)').run(id, 'other-server', Date.now() + 600_000));
    return { path, id };
  };

  const cases: [string, Record<string, string>, boolean][] = [
    ['PATCH', { 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' }, true],
    ['POST', { 'Upload-Offset': '0', 'X-HTTP-Method-Override': 'PATCH', 'Content-Type': 'application/offset+octet-stream' }, true],
    ['POST', { 'Upload-Offset': '0' }, true],
    ['DELETE', {}, false],
  ];
  for (const [method, headers, withBody] of cases) {
    it(`answers ${method} ${JSON.stringify(headers)} with 423 after the lock wait, storing nothing`, async () => {
      const { path, id } = await lockedUpload();
      const started = Date.now();
      const res = await raw(s, method, path, tus(headers), withBody ? new Uint8Array(size).fill(7) : undefined);
      const took = Date.now() - started;
      expect(res.status).toBe(423);
      expect(await res.text()).toBe('The upload is locked by another request.\n');
      expect(took).toBeGreaterThanOrEqual(WAIT - 50);
      expect(took).toBeLessThan(WAIT + 5000);
      // the other server's lock is untouched and this server took none
      expect(lockRows()).toEqual([{ id, owner: 'other-server' }]);
      // once the other server is gone, the upload is there, still empty
      s.sql((db) => db.prepare('delete from upload_locks').run());
      const head = await raw(s, 'HEAD', path, tus());
      expect(head.status).toBe(200);
      expect(head.headers.get('upload-offset')).toBe('0');
      expect(head.headers.get('upload-length')).toBe(String(size));
      expect(s.logs()).not.toContain('Unexpected tus error');
    });
  }
});
