// The refusals of a tus PATCH: a wrong content type (415), an Upload-Offset that is not a
// number (400). Each one stores nothing: the offset stays where it was.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newShare, raw, startUploadServer, type UploadServer } from './support.js';

describe('tus PATCH refusals', () => {
  let s: UploadServer;
  beforeAll(async () => {
    s = await startUploadServer('database');
  });
  afterAll(() => s.dispose());

  const upload = async (size: number) => {
    const shareId = await newShare(s, s.token);
    const created = await raw(s, 'POST', `/api/v2/sec/upload/${shareId}/files/tus`, {
      'Service-Auth': s.token,
      'Tus-Resumable': '1.0.0',
      'Upload-Length': String(size),
    });
    expect(created.status).toBe(201);
    return { shareId, path: new URL(created.headers.get('location')!).pathname };
  };
  const patch = (path: string, headers: Record<string, string>) =>
    raw(s, 'PATCH', path, { 'Service-Auth': s.token, 'Tus-Resumable': '1.0.0', ...headers }, new Uint8Array(10).fill(7));
  const offsetOf = async (path: string) =>
    (await raw(s, 'HEAD', path, { 'Service-Auth': s.token, 'Tus-Resumable': '1.0.0' })).headers.get('upload-offset');

  it('answers a body that is not application/offset+octet-stream with 415', async () => {
    const { path } = await upload(10);
    for (const type of ['text/plain', 'application/octet-stream', 'application/offset+octet-stream; charset=utf-8']) {
      const res = await patch(path, { 'Upload-Offset': '0', 'Content-Type': type });
      expect(res.status, type).toBe(415);
      expect(await res.text()).toBe('Content-Type must be application/offset+octet-stream.\n');
    }
    expect(await offsetOf(path)).toBe('0');
  });

  it('answers an Upload-Offset that is missing or not a non-negative integer with 400', async () => {
    const { path } = await upload(10);
    for (const offset of [undefined, '', '-1', 'abc', '1.5', '0x0', '9999999999999999']) {
      const res = await patch(path, { 'Content-Type': 'application/offset+octet-stream', ...(offset === undefined ? {} : { 'Upload-Offset': offset }) });
      expect(res.status, `Upload-Offset ${offset}`).toBe(400);
    }
    expect(await offsetOf(path)).toBe('0');
  });
});
