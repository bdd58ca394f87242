import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerEvent } from '../../../server/index.js';
import { startServer, type TestServer } from '../../support/server.js';
import {
  bytes,
  createAlias,
  createUser,
  DAY,
  guest,
  guestShare,
  guestTusUpload,
  HOUR,
  multipartForm,
  postForm,
  type Result,
  type User,
} from './support.js';

interface Detail {
  id: string;
  aliasId: string | null;
  aliasName: string | null;
  validity: number;
  password: boolean;
  files: { id: string; filename: string; size: number; storedSize: number }[];
}

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

describe('guest uploads through an alias', () => {
  let s: TestServer;
  let alice: User;
  let bob: User;
  let aliasId: string;
  const events: ServerEvent[] = [];

  beforeAll(async () => {
    s = await startServer({ config: { backend: { share: { 'require-share-password': true, 'max-size': '2M' } } } });
    s.events.subscribe((e) => events.push(e));
    alice = await createUser(s, 'alice');
    bob = await createUser(s, 'bob');
    aliasId = await createAlias(s, alice, { name: 'Drop box', validity: 5 * HOUR });
  });
  afterAll(() => s.stop());

  const detail = (u: User, id: string) => s.request<Detail>('GET', `/api/v2/sec/share/${id}`, undefined, { token: u.token });

  it('creates a share by multipart for the alias owner, with the alias validity and no password requirement', async () => {
    events.length = 0;
    const res = await postForm(s, '/api/v2/alias/upload', guest(aliasId), multipartForm({ validity: 300 * DAY, maxViews: 3, name: 'From a guest' }, [
      { name: 'a.txt', content: 'hello' },
      { name: 'b.bin', content: bytes(3000) },
    ]));
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: 'Share created.' });
    const d = await detail(alice, res.body.id!);
    expect(d.status).toBe(200);
    expect(d.body).toMatchObject({ aliasId, aliasName: 'Drop box', validity: 5 * HOUR, password: false });
    expect(d.body.files.map((f) => [f.filename, f.size, f.storedSize]).sort()).toEqual([
      ['a.txt', 5, 5],
      ['b.bin', 3000, 3000],
    ]);
    const search = await s.request<{ items: { id: string; aliasName: string }[] }>('GET', '/api/v2/sec/share/search', undefined, { token: alice.token });
    expect(search.body.items.find((i) => i.id === res.body.id)).toMatchObject({ aliasName: 'Drop box' });
    // the owner, unlike the guest, needs a password here
    const own = await s.request<Result>('POST', '/api/v2/sec/upload/new', { validity: DAY, maxViews: 1 }, { token: alice.token });
    expect(own.body).toMatchObject({ success: false, message: 'A password is required for this share.' });
    // a completed multipart upload is announced once
    expect(events).toEqual([{ type: 'guest-upload-completed', shareId: res.body.id, aliasId, aliasName: 'Drop box', shareName: 'From a guest', fileCount: 2, totalSize: 3005 }]);
  });

  it('uploads with tus-js-client to an empty guest share; Location is absolute and under /api/v2/alias/upload', async () => {
    const shareId = await guestShare(s, aliasId, { validity: 999 * DAY });
    const data = bytes(200_000, 3);
    const url = await guestTusUpload(s, aliasId, shareId, data, 'photo.jpg');
    expect(url.startsWith(`${s.url}/api/v2/alias/upload/${shareId}/files/tus/`)).toBe(true);
    const created = await fetch(`${s.url}/api/v2/alias/upload/${shareId}/files/tus`, {
      method: 'POST',
      headers: { ...guest(aliasId), 'Tus-Resumable': '1.0.0', 'Upload-Length': '3', 'Service-File-Name': 'x.txt' },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toMatch(new RegExp(`^${s.url}/api/v2/alias/upload/${shareId}/files/tus/[A-Za-z0-9_-]+$`));
    const d = await detail(alice, shareId);
    expect(d.body.validity).toBe(5 * HOUR);
    const photo = d.body.files.find((f) => f.filename === 'photo.jpg')!;
    expect(photo).toMatchObject({ size: 200_000, storedSize: 200_000 });
    const got = await fetch(`${s.url}/api/v2/sec/share/${shareId}/file/${photo.id}`, { headers: { 'Service-Auth': alice.token } });
    expect(sha(new Uint8Array(await got.arrayBuffer()))).toBe(sha(data));
  });

  it('limits a guest to the shares of its alias', async () => {
    const other = await createAlias(s, bob, { name: 'Bob box' });
    const mine = await guestShare(s, aliasId);
    const url = await guestTusUpload(s, aliasId, mine, bytes(10), 'a.bin');
    const fid = url.slice(url.lastIndexOf('/') + 1);
    const ownerShare = (
      await s.request<Result>('POST', '/api/v2/sec/upload/new', { validity: DAY, maxViews: 1, password: 'pw' }, { token: alice.token })
    ).body.id!;
    for (const [shareId, header] of [
      [mine, guest(other)],
      [ownerShare, guest(aliasId)],
    ] as const) {
      const add = await postForm(s, `/api/v2/alias/upload/${shareId}/files/add`, header, multipartForm(undefined, [{ name: 'x', content: 'x' }]));
      expect(add.status, add.text).toBe(404);
      const tus = await fetch(`${s.url}/api/v2/alias/upload/${shareId}/files/tus`, {
        method: 'POST',
        headers: { ...header, 'Tus-Resumable': '1.0.0', 'Upload-Length': '1' },
      });
      expect(tus.status).toBe(404);
      const notify = await s.request('POST', `/api/v2/alias/mail/notify/${shareId}`, undefined, { headers: header });
      expect(notify.status).toBe(404);
    }
    const head = await fetch(`${s.url}/api/v2/alias/upload/${mine}/files/tus/${fid}`, { method: 'HEAD', headers: { ...guest(other), 'Tus-Resumable': '1.0.0' } });
    expect(head.status).toBe(404);
    const ownHead = await fetch(`${s.url}/api/v2/alias/upload/${mine}/files/tus/${fid}`, { method: 'HEAD', headers: { ...guest(aliasId), 'Tus-Resumable': '1.0.0' } });
    expect(ownHead.status).toBe(200);
    expect(ownHead.headers.get('upload-offset')).toBe('10');
    const terminate = (h: Record<string, string>) =>
      fetch(`${s.url}/api/v2/alias/upload/${mine}/files/tus/${fid}`, { method: 'DELETE', headers: { ...h, 'Tus-Resumable': '1.0.0' } });
    expect((await terminate(guest(other))).status).toBe(404);
    expect((await terminate(guest(aliasId))).status).toBe(204);
    expect((await detail(alice, mine)).body.files).toEqual([]);
    // the guest's own share takes more files
    const add = await postForm(s, `/api/v2/alias/upload/${mine}/files/add`, guest(aliasId), multipartForm(undefined, [{ name: 'more.txt', content: 'more' }]));
    expect(add.body).toEqual({ success: true, message: 'File(s) added', code: 'share.files-added' });
    // the guest zone has no owner routes
    expect((await fetch(`${s.url}/api/v2/alias/share/${mine}`, { headers: guest(aliasId) })).status).toBe(404);
  });

  it('answers 401 for unknown, malformed, missing and disabled aliases on every guest route', async () => {
    const disabled = await createAlias(s, alice, { name: 'Closed', enabled: false });
    const share = await guestShare(s, aliasId);
    for (const headers of [guest('no-such-alias'), guest(disabled), guest('bad id!'), {}]) {
      const created = await s.request<Result>('POST', '/api/v2/alias/upload/new', { validity: 0, maxViews: 1 }, { headers });
      expect(created.status).toBe(401);
      expect(created.body).toEqual({ success: false, message: 'Authentication failed.', code: 'auth.failed' });
      expect((await postForm(s, '/api/v2/alias/upload', headers, multipartForm(undefined, [{ name: 'x', content: 'x' }]))).status).toBe(401);
      expect((await postForm(s, `/api/v2/alias/upload/${share}/files/add`, headers, multipartForm(undefined, []))).status).toBe(401);
      const tus = await fetch(`${s.url}/api/v2/alias/upload/${share}/files/tus`, { method: 'POST', headers: { ...headers, 'Upload-Length': '1', 'Tus-Resumable': '1.0.0' } });
      expect(tus.status).toBe(401);
      expect((await s.request('POST', `/api/v2/alias/mail/notify/${share}`, undefined, { headers })).status).toBe(401);
    }
  });

  it("refuses an alias whose owner's account is disabled", async () => {
    const dora = await createUser(s, 'dora');
    const id = await createAlias(s, dora, { name: 'Dora' });
    await guestShare(s, id);
    const admin = await s.login('admin', 'admin-test-password');
    await s.request('POST', `/api/v2/admin/account/${dora.id}`, { state: 'Disabled', admin: false }, { token: admin });
    expect((await s.request('POST', '/api/v2/alias/upload/new', { validity: 0, maxViews: 1 }, { headers: guest(id) })).status).toBe(401);
    expect((await s.request('GET', `/api/v2/open/alias/${id}`)).status).toBe(404);
  });

  it('applies max-size to guests and keeps nothing of a refused multipart upload', async () => {
    const before = (await s.request<{ items: unknown[] }>('GET', '/api/v2/sec/share/search', undefined, { token: alice.token })).body.items.length;
    const res = await postForm(s, '/api/v2/alias/upload', guest(aliasId), multipartForm(undefined, [{ name: 'big.bin', content: bytes(3 * 1024 * 1024) }]));
    expect(res.status).toBe(413);
    const after = (await s.request<{ items: unknown[] }>('GET', '/api/v2/sec/share/search', undefined, { token: alice.token })).body.items.length;
    expect(after).toBe(before);
  });
});

describe('members of an alias and the shares uploaded through it', () => {
  let s: TestServer;
  let alice: User;
  let bob: User;
  let carol: User;
  let aliasId: string;
  let shareId: string;
  let fileId: string;

  beforeAll(async () => {
    s = await startServer();
    alice = await createUser(s, 'alice');
    bob = await createUser(s, 'bob');
    carol = await createUser(s, 'carol');
    aliasId = await createAlias(s, alice, { name: 'Team inbox', members: [bob.id] });
    const res = await postForm(s, '/api/v2/alias/upload', guest(aliasId), multipartForm({ validity: 0, maxViews: 5, name: 'Guest files' }, [
      { name: 'one.txt', content: 'one' },
      { name: 'two.txt', content: 'two' },
    ]));
    shareId = res.body.id!;
    const d = await s.request<Detail>('GET', `/api/v2/sec/share/${shareId}`, undefined, { token: alice.token });
    fileId = d.body.files.find((f) => f.filename === 'one.txt')!.id;
  });
  afterAll(() => s.stop());

  const search = async (u: User) =>
    (await s.request<{ items: { id: string }[] }>('GET', '/api/v2/sec/share/search', undefined, { token: u.token })).body.items.map((i) => i.id);

  it('a member sees, downloads, zips, edits and publishes the share; a stranger does not', async () => {
    expect(await search(bob)).toContain(shareId);
    expect(await search(carol)).not.toContain(shareId);
    expect((await s.request('GET', `/api/v2/sec/share/${shareId}`, undefined, { token: bob.token })).status).toBe(200);
    expect((await s.request('GET', `/api/v2/sec/share/${shareId}`, undefined, { token: carol.token })).status).toBe(404);

    const file = await fetch(`${s.url}/api/v2/sec/share/${shareId}/file/${fileId}`, { headers: { 'Service-Auth': bob.token } });
    expect(file.status).toBe(200);
    expect(await file.text()).toBe('one');
    expect((await fetch(`${s.url}/api/v2/sec/share/${shareId}/file/${fileId}`, { headers: { 'Service-Auth': carol.token } })).status).toBe(404);
    const zip = await fetch(`${s.url}/api/v2/sec/share/${shareId}/zip`, { headers: { 'Service-Auth': bob.token } });
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toContain('zip');
    await zip.arrayBuffer();
    expect((await fetch(`${s.url}/api/v2/sec/share/${shareId}/zip`, { headers: { 'Service-Auth': carol.token } })).status).toBe(404);

    expect((await s.request('POST', `/api/v2/sec/share/${shareId}/name`, { value: 'Renamed by bob' }, { token: bob.token })).body).toEqual({ success: true, message: 'Name updated.', code: 'share.name-updated' });
    expect((await s.request('POST', `/api/v2/sec/share/${shareId}/name`, { value: 'carol' }, { token: carol.token })).status).toBe(404);
    expect((await s.request('POST', `/api/v2/sec/share/${shareId}/publish`, { reuseId: false }, { token: carol.token })).status).toBe(404);
    expect((await s.request('POST', `/api/v2/sec/share/${shareId}/publish`, { reuseId: false }, { token: bob.token })).body).toEqual({ success: true, message: 'Share published.', code: 'share.published' });
    const mine = await s.request<{ name: string; publishInfo: { enabled: boolean } }>('GET', `/api/v2/sec/share/${shareId}`, undefined, { token: alice.token });
    expect(mine.body).toMatchObject({ name: 'Renamed by bob', publishInfo: { enabled: true } });
    expect((await s.request('DELETE', `/api/v2/sec/share/${shareId}/file/${fileId}`, undefined, { token: carol.token })).status).toBe(404);
    expect((await s.request('DELETE', `/api/v2/sec/share/${shareId}`, undefined, { token: carol.token })).status).toBe(404);
  });

  it('a member deletes the share; a former member loses access', async () => {
    const res = await postForm(s, '/api/v2/alias/upload', guest(aliasId), multipartForm(undefined, [{ name: 'x.txt', content: 'x' }]));
    const other = res.body.id!;
    expect((await s.request('DELETE', `/api/v2/sec/share/${other}`, undefined, { token: bob.token })).body).toEqual({ success: true, message: 'Share deleted.', code: 'share.deleted' });
    expect((await s.request('GET', `/api/v2/sec/share/${other}`, undefined, { token: alice.token })).status).toBe(404);

    await s.request('POST', `/api/v2/sec/alias/${aliasId}`, { name: 'Team inbox', validity: DAY, enabled: true, members: [carol.id] }, { token: alice.token });
    expect(await search(bob)).not.toContain(shareId);
    expect((await s.request('GET', `/api/v2/sec/share/${shareId}`, undefined, { token: bob.token })).status).toBe(404);
    expect(await search(carol)).toContain(shareId);
  });
});
