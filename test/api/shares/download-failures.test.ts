import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchRaw, shareWithFiles, withDatabase } from '../../support/share-fixtures.js';
import { ADMIN, startServer, type TestServer } from '../../support/server.js';

// A file whose bytes are gone from the file-system store (removed by hand):
// the answer is an error, and it does not describe the file it could not send.
describe('a download whose binary cannot be read', () => {
  let s: TestServer;
  let token: string;
  let shareId: string;
  let fid: string;
  beforeAll(async () => {
    s = await startServer({
      config: { backend: { files: { 'default-store': 'filesystem', stores: { filesystem: { enabled: true } } } } },
    });
    token = await s.login(ADMIN.login, ADMIN.password);
    const share = await shareWithFiles(s, token, [{ name: 'gone.pdf', content: 'x'.repeat(3000), type: 'application/pdf' }]);
    shareId = share.id;
    fid = share.list[0]!.id;
    const location = await withDatabase(s, async (db) => {
      const row = await db.selectFrom('share_files').innerJoin('file_meta', 'file_meta.file_id', 'share_files.file_id').select('file_meta.location').where('share_files.id', '=', fid).executeTakeFirstOrThrow();
      return row.location;
    });
    rmSync(join(s.dataDir, 'files', location));
  });
  afterAll(() => s.stop());

  it.each<Record<string, string>>([{}, { Range: 'bytes=10-20' }])('answers an error without the file headers (%o)', async (headers) => {
    const res = await fetchRaw(s, `/api/v2/sec/share/${shareId}/file/${fid}`, { headers: { 'Service-Auth': token, ...headers } });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    for (const h of ['content-disposition', 'content-range', 'etag', 'last-modified', 'accept-ranges']) expect(res.headers.get(h), h).toBeNull();
    const body = (await res.json()) as { success: boolean; message: string };
    expect(body.success).toBe(false);
    expect(body.message).not.toMatch(/ENOENT|\/tmp\//);
  });
});
