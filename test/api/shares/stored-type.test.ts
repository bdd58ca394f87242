import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileIdOf, newShare, startUploadServer, tusUpload, type UploadServer } from '../uploads/support.js';

describe('a stored file type that is no MIME type', () => {
  let s: UploadServer;
  beforeAll(async () => {
    s = await startUploadServer('database');
  });
  afterAll(() => s.dispose());

  // Rows stored before types were checked at upload could hold CR/LF; writing them into Content-Type was a 500.
  it('is sent as application/octet-stream, never into the header as written', async () => {
    const shareId = await newShare(s, s.token);
    const fid = fileIdOf(await tusUpload(s, s.token, shareId, Buffer.from('hello'), { type: 'text/plain' }));
    s.sql((db) =>
      db.prepare('UPDATE file_meta SET mimetype = ? WHERE file_id = (SELECT file_id FROM share_files WHERE id = ?)').run('text/plain\r\nX-Evil: 1', fid),
    );
    const r = await fetch(`${s.url}/api/v2/sec/share/${shareId}/file/${fid}`, { headers: { 'Service-Auth': s.token } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/octet-stream');
    expect(r.headers.get('x-evil')).toBeNull();
    expect(await r.text()).toBe('hello');
  });
});
