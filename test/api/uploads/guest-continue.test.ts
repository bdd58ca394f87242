/**
 * A guest's send continued after a reload goes into the share the first attempt
 * made: through the same upload link, OPTIONS tells the room that share has left
 * (files being uploaded hold their declared size already), HEAD the offset the
 * server kept, and the upload continues there. Through another upload link, or
 * without one, the share is not there: 404 on OPTIONS, HEAD, PATCH and creation,
 * and nothing changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminUser, createAlias, guest, guestShare } from '../aliases/support.js';
import { fileIdOf, fileRows, raw, startUploadServer, type UploadServer } from './support.js';

const TUS = { 'Tus-Resumable': '1.0.0' };
const MAX = 1000;

describe('a guest continues a send into the share of its upload link', () => {
  let s: UploadServer;
  let alias: string;
  let otherAlias: string;
  let share: string;
  let upload: string;

  beforeAll(async () => {
    s = await startUploadServer('database', { share: { 'max-size': String(MAX) } });
    const owner = await adminUser(s);
    alias = await createAlias(s, owner);
    otherAlias = await createAlias(s, owner);
    share = await guestShare(s, alias);
    // the first attempt: 300 bytes declared, 100 sent before the page went away
    const r = await raw(
      s,
      'POST',
      `/api/v2/alias/upload/${share}/files/tus`,
      { ...guest(alias), ...TUS, 'Upload-Length': '300', 'Content-Type': 'application/offset+octet-stream' },
      Buffer.alloc(100, 1),
    );
    expect(r.status, await r.text()).toBe(201);
    upload = new URL(r.headers.get('location')!).pathname;
  });
  afterAll(async () => s?.dispose());

  const endpoint = () => `/api/v2/alias/upload/${share}/files/tus`;

  it('through the same link: the room left, the offset kept, and the rest appended there', async () => {
    const options = await raw(s, 'OPTIONS', endpoint(), { ...guest(alias), ...TUS });
    expect(options.status).toBe(204);
    expect(options.headers.get('tus-max-size')).toBe(String(MAX - 300));
    const head = await raw(s, 'HEAD', upload, { ...guest(alias), ...TUS });
    expect(head.status).toBe(200);
    expect(head.headers.get('upload-offset')).toBe('100');
    const patch = await raw(s, 'PATCH', upload, { ...guest(alias), ...TUS, 'Upload-Offset': '100', 'Content-Type': 'application/offset+octet-stream' }, Buffer.alloc(200, 2));
    expect(patch.status).toBe(204);
    expect(patch.headers.get('upload-offset')).toBe('300');
    const rows = fileRows(s, share);
    expect(rows.map((r) => r.id)).toEqual([fileIdOf(upload)]);
  });

  it('through another link or none: the share is not there and nothing changes', async () => {
    const before = fileRows(s, share);
    for (const headers of [guest(otherAlias), {}]) {
      expect([401, 404]).toContain((await raw(s, 'OPTIONS', endpoint(), { ...headers, ...TUS })).status);
      const head = await raw(s, 'HEAD', upload, { ...headers, ...TUS });
      expect([401, 404]).toContain(head.status);
      const patch = await raw(s, 'PATCH', upload, { ...headers, ...TUS, 'Upload-Offset': '300', 'Content-Type': 'application/offset+octet-stream' }, 'x');
      expect([401, 404]).toContain(patch.status);
      const create = await raw(s, 'POST', endpoint(), { ...headers, ...TUS, 'Upload-Length': '5' });
      expect([401, 404]).toContain(create.status);
    }
    expect(fileRows(s, share)).toEqual(before);
  });
});
