import { relative, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../server/common/clock.js';
import { startServer, type TestServer } from '../../support/server.js';
import { filesBelow, startUploadServer } from '../uploads/support.js';
import { bytes, createAlias, createUser, DAY, guest, guestShare, guestTusUpload, multipartForm, postForm, type AliasBody, type Result, type User } from './support.js';
import { publish } from '../../support/share-fixtures.js';

const MB = 1024 * 1024;

/** `23 Nov`: the day of `ms` as the server writes it in English, in UTC. */
const dayOf = (ms: number): string => new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(ms);

describe('upload links: message, size limit, expiry', () => {
  const clock = manualClock();
  let s: TestServer;
  let alice: User;
  let bob: User;

  beforeAll(async () => {
    s = await startServer({ clock, config: { backend: { share: { 'max-size': '5M', 'max-validity': '30 days' }, auth: { 'session-valid': '30 days', 'session-max': '30 days' } } } });
    alice = await createUser(s, 'alice');
    bob = await createUser(s, 'bob');
  });
  afterAll(() => s.stop());

  const get = (id: string) => s.request<AliasBody>('GET', `/api/v2/sec/alias/${id}`, undefined, { token: alice.token });
  const modify = (id: string, body: object) => s.request<Result>('POST', `/api/v2/sec/alias/${id}`, body, { token: alice.token });
  const openInfo = (id: string) => s.request<Record<string, unknown>>('GET', `/api/v2/open/alias/${id}`);

  it('stores them, shows them to the owner and the guest page, keeps them when a change leaves them out, clears them with null', async () => {
    const expires = clock.now() + 3 * DAY;
    const id = await createAlias(s, alice, { name: 'Party', members: [bob.id], message: '  Photos from Saturday, please!\nThanks  ', maxSize: MB, expires });
    expect((await get(id)).body).toMatchObject({ name: 'Party', message: 'Photos from Saturday, please!\nThanks', maxSize: MB, expires });
    expect((await openInfo(id)).body).toEqual({
      id, name: 'Party', enabled: true, validity: DAY, maxSize: MB, members: 1, message: 'Photos from Saturday, please!\nThanks', expires,
    });

    // a client that does not know the fields (Sharry's) keeps them
    expect((await modify(id, { name: 'Party 2', validity: DAY, enabled: true, members: [] })).body.success).toBe(true);
    expect((await get(id)).body).toMatchObject({ name: 'Party 2', message: 'Photos from Saturday, please!\nThanks', maxSize: MB, expires });
    expect((await openInfo(id)).body).toMatchObject({ members: 0 });

    expect((await modify(id, { name: 'Party 2', validity: DAY, enabled: true, message: null, maxSize: null, expires: null })).body.success).toBe(true);
    expect((await get(id)).body).toMatchObject({ message: null, maxSize: null, expires: null });
    // without a limit of its own the link takes what the server allows
    expect((await openInfo(id)).body).toMatchObject({ maxSize: 5 * MB, message: null, expires: null });
    // an empty message is none
    await modify(id, { name: 'Party 2', validity: DAY, enabled: true, message: '   ' });
    expect((await get(id)).body.message).toBeNull();
  });

  it('refuses a size limit above the server’s, a message over 2000 characters and malformed values', async () => {
    const over = await s.request<Result>('POST', '/api/v2/sec/alias', { name: 'Big', validity: DAY, enabled: true, maxSize: 5 * MB + 1 }, { token: alice.token });
    expect(over.body).toEqual({ success: false, message: 'Maximum size (5M) exceeded', code: 'alias.max-size-exceeded', id: '' });
    const id = await createAlias(s, alice, { name: 'Small', maxSize: 5 * MB });
    expect((await modify(id, { name: 'Small', validity: DAY, enabled: true, maxSize: 6 * MB })).body).toMatchObject({ success: false, code: 'alias.max-size-exceeded' });

    const long = await s.request<Result>('POST', '/api/v2/sec/alias', { name: 'Chatty', validity: DAY, enabled: true, message: 'x'.repeat(2001) }, { token: alice.token });
    expect(long.status).toBe(400);
    expect(long.body.message).toContain('message');
    const ok = await s.request<Result>('POST', '/api/v2/sec/alias', { name: 'Chatty', validity: DAY, enabled: true, message: 'x'.repeat(2000) }, { token: alice.token });
    expect(ok.body.success).toBe(true);
    // characters, not UTF-16 units: 2000 emoji are 2000 characters
    const emoji = await s.request<Result>('POST', '/api/v2/sec/alias', { name: 'Smiley', validity: DAY, enabled: true, message: '🙂'.repeat(2000) }, { token: alice.token });
    expect(emoji.body.success).toBe(true);

    for (const bad of [{ maxSize: 0 }, { maxSize: -5 }, { maxSize: '1M' }, { expires: 'tomorrow' }, { message: 42 }]) {
      const res = await s.request<Result>('POST', '/api/v2/sec/alias', { name: 'Bad', validity: DAY, enabled: true, ...bad }, { token: alice.token });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.message).toContain(Object.keys(bad)[0]);
    }
  });

  it('stops taking uploads once the link expires: the guest page gets 404, uploads 401', async () => {
    const id = await createAlias(s, alice, { name: 'Until tomorrow', expires: clock.now() + DAY });
    const shareId = await guestShare(s, id);
    expect((await openInfo(id)).status).toBe(200);
    clock.advance(DAY);
    expect((await openInfo(id)).status).toBe(404);
    const late = await s.request<Result>('POST', '/api/v2/alias/upload/new', { validity: 0, maxViews: 1 }, { headers: guest(id) });
    expect(late.status).toBe(401);
    const tus = await fetch(`${s.url}/api/v2/alias/upload/${shareId}/files/tus`, { method: 'POST', headers: { ...guest(id), 'Tus-Resumable': '1.0.0', 'Upload-Length': '3' } });
    expect(tus.status).toBe(401);
    // the owner opens it again
    expect((await modify(id, { name: 'Until tomorrow', validity: DAY, enabled: true, expires: clock.now() + DAY })).body.success).toBe(true);
    expect((await openInfo(id)).status).toBe(200);
  });

  it('caps every share of the link at its size limit, for tus and multipart, before a byte is stored', async () => {
    const id = await createAlias(s, alice, { name: 'One megabyte', maxSize: MB });
    const shareId = await guestShare(s, id);
    const tusUrl = `${s.url}/api/v2/alias/upload/${shareId}/files/tus`;
    const options = await fetch(tusUrl, { method: 'OPTIONS', headers: guest(id) });
    expect(options.headers.get('Tus-Max-Size')).toBe(String(MB));

    const tooBig = await fetch(tusUrl, { method: 'POST', headers: { ...guest(id), 'Tus-Resumable': '1.0.0', 'Upload-Length': String(MB + 1) } });
    expect(tooBig.status).toBe(413);
    expect(tooBig.headers.get('Tus-Max-Size')).toBe(String(MB));
    await guestTusUpload(s, id, shareId, bytes(MB - 10), 'most.bin');
    const rest = await fetch(tusUrl, { method: 'POST', headers: { ...guest(id), 'Tus-Resumable': '1.0.0', 'Upload-Length': '11' } });
    expect(rest.status).toBe(413);
    expect(rest.headers.get('Tus-Max-Size')).toBe('10');
    const head = await fetch(tusUrl, { method: 'OPTIONS', headers: guest(id) });
    expect(head.headers.get('Tus-Max-Size')).toBe('10');

    // the limit is per share: the next share of the link has the whole megabyte again
    const multipart = await postForm(s, '/api/v2/alias/upload', guest(id), multipartForm(undefined, [{ name: 'big.bin', content: bytes(MB + 1) }]));
    expect(multipart.status).toBe(413);
    expect(multipart.body.message).toBe('Maximum size (1M) exceeded');
    const fits = await postForm(s, '/api/v2/alias/upload', guest(id), multipartForm(undefined, [{ name: 'fits.bin', content: bytes(MB) }]));
    expect(fits.body.success, fits.text).toBe(true);

    // the owner's own shares keep the server's limit
    const own = await s.request<Result>('POST', '/api/v2/sec/upload/new', { validity: DAY, maxViews: 1 }, { token: alice.token });
    const ownOptions = await fetch(`${s.url}/api/v2/sec/upload/${own.body.id}/files/tus`, { method: 'OPTIONS', headers: { 'Service-Auth': alice.token } });
    expect(ownOptions.headers.get('Tus-Max-Size')).toBe(String(5 * MB));
  });
});

describe('guest shares are named after the sender and their files', () => {
  let s: TestServer;
  let de: TestServer;
  let alice: User;
  let aliasId: string;

  beforeAll(async () => {
    s = await startServer();
    de = await startServer({ config: { webapp: { 'default-language': 'de', 'default-timezone': 'Europe/Berlin' } } });
    alice = await createUser(s, 'alice');
    aliasId = await createAlias(s, alice, { name: 'Party' });
  });
  afterAll(async () => {
    await s.stop();
    await de.stop();
  });

  const notify = (server: TestServer, alias: string, shareId: string, body?: object) =>
    server.request<Result>('POST', `/api/v2/alias/mail/notify/${shareId}`, body, { headers: guest(alias) });
  const shareOf = async (server: TestServer, u: User, shareId: string) =>
    (await server.request<{ name: string | null; created: number }>('GET', `/api/v2/sec/share/${shareId}`, undefined, { token: u.token })).body;
  const photos = async (server: TestServer, alias: string, shareId: string, n: number) => {
    for (let i = 0; i < n; i++) await guestTusUpload(server, alias, shareId, bytes(100 + i, i), `IMG_${i}.jpg`, 64 * 1024, 'image/jpeg');
  };

  it('"From Anna · 3 photos · 23 Nov": the cleaned name the guest page sends, the kind and number of files, the day', async () => {
    const shareId = await guestShare(s, aliasId);
    expect((await shareOf(s, alice, shareId)).name).toBeNull();
    await photos(s, aliasId, shareId, 3);
    expect((await notify(s, aliasId, shareId, { sender: '  Anna\u0000\n \u202eMüller\t ' })).status).toBe(200);
    const share = await shareOf(s, alice, shareId);
    expect(share.name).toBe(`From Anna Müller · 3 photos · ${dayOf(share.created)}`);
    // the share list shows it and finds it by the sender
    const found = await s.request<{ items: { id: string; name: string }[] }>('GET', '/api/v2/sec/share/search?q=anna', undefined, { token: alice.token });
    expect(found.body.items.map((i) => i.id)).toEqual([shareId]);
  });

  it('"2 files · 23 Nov" without a name; one file, one video, mixed kinds', async () => {
    const shareId = await guestShare(s, aliasId);
    await guestTusUpload(s, aliasId, shareId, bytes(10), 'a.pdf', 64 * 1024, 'application/pdf');
    await guestTusUpload(s, aliasId, shareId, bytes(20), 'b.jpg', 64 * 1024, 'image/jpeg');
    await notify(s, aliasId, shareId);
    const share = await shareOf(s, alice, shareId);
    expect(share.name).toBe(`2 files · ${dayOf(share.created)}`);

    const video = await guestShare(s, aliasId);
    await guestTusUpload(s, aliasId, video, bytes(30), 'clip.mp4', 64 * 1024, 'video/mp4');
    await notify(s, aliasId, video, { sender: null });
    expect((await shareOf(s, alice, video)).name).toMatch(/^1 video · /);

    const empty = await notify(s, aliasId, await guestShare(s, aliasId), { sender: '   ' });
    expect(empty.status).toBe(200);
  });

  it('renews the name as files arrive, but never replaces a name somebody chose', async () => {
    const shareId = await guestShare(s, aliasId);
    await photos(s, aliasId, shareId, 2);
    await notify(s, aliasId, shareId, { sender: 'Ben' });
    expect((await shareOf(s, alice, shareId)).name).toMatch(/^From Ben · 2 photos · /);
    // a retried file arrives later; the guest page tells again, without the name this time
    await photos(s, aliasId, shareId, 1);
    await notify(s, aliasId, shareId);
    expect((await shareOf(s, alice, shareId)).name).toMatch(/^From Ben · 3 photos · /);

    const renamed = await s.request<Result>('POST', `/api/v2/sec/share/${shareId}/name`, { value: 'Ben’s holiday' }, { token: alice.token });
    expect(renamed.body.success, renamed.text).toBe(true);
    await photos(s, aliasId, shareId, 1);
    await notify(s, aliasId, shareId, { sender: 'Ben' });
    expect((await shareOf(s, alice, shareId)).name).toBe('Ben’s holiday');

    // a guest who names the share when creating it keeps that name
    const named = await guestShare(s, aliasId, { name: 'Receipts 2026' });
    await photos(s, aliasId, named, 1);
    await notify(s, aliasId, named, { sender: 'Ben' });
    expect((await shareOf(s, alice, named)).name).toBe('Receipts 2026');
  });

  it('gives clients the parts of a composed name (sender, kind, and whether it is composed), so they say it in their own language', async () => {
    type Item = { id: string; name: string; autoNamed: boolean; sender: string | null; filesKind: string | null };
    const aliasId = await createAlias(s, alice, { name: 'Clara’s link' });
    const shareId = await guestShare(s, aliasId);
    await photos(s, aliasId, shareId, 2);
    await notify(s, aliasId, shareId, { sender: 'Clara' });
    const listed = async () =>
      (await s.request<{ items: Item[] }>('GET', '/api/v2/sec/share/search?q=clara', undefined, { token: alice.token })).body.items.find((i) => i.id === shareId)!;
    expect(await listed()).toMatchObject({ autoNamed: true, sender: 'Clara', filesKind: 'photo' });
    expect(await shareOf(s, alice, shareId)).toMatchObject({ autoNamed: true, sender: 'Clara' });
    // a recipient of the published share reads the sender only as part of the composed name
    const pid = await publish(s, alice.token, shareId);
    const open = async () => (await s.request<{ name: string; autoNamed: boolean; sender: string | null }>('GET', `/api/v2/open/share/${pid}`)).body;
    expect(await open()).toMatchObject({ autoNamed: true, sender: 'Clara' });
    await s.request<Result>('POST', `/api/v2/sec/share/${shareId}/name`, { value: 'Clara’s pictures' }, { token: alice.token });
    expect(await listed()).toMatchObject({ name: 'Clara’s pictures', autoNamed: false, sender: 'Clara' });
    expect(await open()).toMatchObject({ name: 'Clara’s pictures', autoNamed: false, sender: null });
    // a share of mixed files is files; one without files has no kind
    const mixed = await guestShare(s, aliasId);
    await photos(s, aliasId, mixed, 1);
    await guestTusUpload(s, aliasId, mixed, bytes(10), 'notes.txt', 64 * 1024, 'text/plain');
    await notify(s, aliasId, mixed, { sender: 'Clara' });
    const empty = await guestShare(s, aliasId);
    const items = (await s.request<{ items: Item[] }>('GET', '/api/v2/sec/share/search', undefined, { token: alice.token })).body.items;
    expect(items.find((i) => i.id === mixed)).toMatchObject({ filesKind: 'file', autoNamed: true });
    expect(items.find((i) => i.id === empty)).toMatchObject({ filesKind: null, autoNamed: false, sender: null });
  });

  it('keeps the sender a guest gives when the share is made, so an upload that never finishes still says who sent it', async () => {
    const aliasId = await createAlias(s, alice, { name: 'Outage link' });
    const shareId = await guestShare(s, aliasId, { sender: '  Dana\u202e ' });
    expect(await shareOf(s, alice, shareId)).toMatchObject({ name: null, autoNamed: false, sender: 'Dana' });
    // too long is refused as on notify
    const long = await s.request<Result>('POST', '/api/v2/alias/upload/new', { validity: 0, maxViews: 10, sender: 'D'.repeat(101) }, { headers: guest(aliasId) });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ code: 'error.bad-request', field: 'sender' });
    // a signed-in user's share has no sender, whatever the body says
    const own = await s.request<Result>('POST', '/api/v2/sec/upload/new', { validity: DAY, maxViews: 1, sender: 'Mallory' }, { token: alice.token });
    expect(await shareOf(s, alice, own.body.id!)).toMatchObject({ sender: null, autoNamed: false });
  });

  it('names multipart guest uploads without meta.name', async () => {
    const res = await postForm(s, '/api/v2/alias/upload', guest(aliasId), multipartForm(undefined, [{ name: 'x.txt', content: 'abc' }]));
    const share = await shareOf(s, alice, res.body.id!);
    expect(share.name).toBe(`1 file · ${dayOf(share.created)}`);
  });

  it('refuses a sender name over 100 characters (after cleaning) with 400, and names nothing', async () => {
    const shareId = await guestShare(s, aliasId);
    await photos(s, aliasId, shareId, 1);
    const long = await notify(s, aliasId, shareId, { sender: 'A'.repeat(101) });
    expect(long.status).toBe(400);
    expect(long.body.message).toContain('sender');
    expect((await shareOf(s, alice, shareId)).name).toBeNull();
    // 100 characters of content, padded with spaces and controls, are fine
    await notify(s, aliasId, shareId, { sender: `\u0007  ${'é'.repeat(100)}   ` });
    expect((await shareOf(s, alice, shareId)).name).toMatch(new RegExp(`^From ${'é'.repeat(100)} · 1 photo · `));
    expect((await notify(s, aliasId, shareId, { sender: 7 })).status).toBe(400);
  });

  it('speaks the server’s default language and time zone', async () => {
    const owner = await createUser(de, 'dora');
    const alias = await createAlias(de, owner, { name: 'Fest' });
    const shareId = await guestShare(de, alias);
    await photos(de, alias, shareId, 3);
    await notify(de, alias, shareId, { sender: 'Anna' });
    const share = await shareOf(de, owner, shareId);
    const day = new Intl.DateTimeFormat('de-DE', { day: 'numeric', month: 'short', timeZone: 'Europe/Berlin' }).format(share.created);
    expect(share.name).toBe(`Von Anna · 3 Fotos · ${day}`);
  });
});

describe('a guest share on the file-system store', () => {
  it('keeps all its files in one folder while the server renames the share after each send', async () => {
    const fs = await startUploadServer('filesystem');
    try {
      const owner = await createUser(fs, 'olga');
      const aliasId = await createAlias(fs, owner, { name: 'Box' });
      const shareId = await guestShare(fs, aliasId);
      const notify = (sender: string) => fs.request('POST', `/api/v2/alias/mail/notify/${shareId}`, { sender }, { headers: guest(aliasId) });
      await guestTusUpload(fs, aliasId, shareId, bytes(10), 'one.txt');
      await notify('Anna');
      await guestTusUpload(fs, aliasId, shareId, bytes(20), 'two.txt');
      const added = await postForm(fs, `/api/v2/alias/upload/${shareId}/files/add`, guest(aliasId), multipartForm(undefined, [{ name: 'three.txt', content: bytes(30) }]));
      expect(added.status, added.text).toBe(200);
      await notify('Anna');
      const folders = new Set(filesBelow(fs.filesDir).map((f) => relative(fs.filesDir, f).split(sep)[0]));
      expect(filesBelow(fs.filesDir)).toHaveLength(3);
      expect([...folders]).toEqual([shareId]);
    } finally {
      await fs.dispose();
    }
  });
});
