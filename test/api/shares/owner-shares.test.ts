import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../server/common/clock.js';
import { createShare, shareDetail, shareWithFiles, publish, type ShareDetailBody } from '../../support/share-fixtures.js';
import { ADMIN, startServer, type TestServer } from '../../support/server.js';

const DAY = 86_400_000;

interface ListItem {
  id: string;
  name: string | null;
  aliasName: string | null;
  validity: number;
  maxViews: number;
  password: boolean;
  created: number;
  files: number;
  size: number;
  published: boolean | null;
  views: number;
  publishUntil: number | null;
}

describe('shares for their owner', () => {
  let s: TestServer;
  let admin: string;
  let kim: string;
  const clock = manualClock(Date.UTC(2030, 0, 1));
  beforeAll(async () => {
    s = await startServer({ clock, config: { 'max-page-size': 5, backend: { auth: { 'session-valid': '3650 days' }, share: { 'max-validity': '30 days' } } } });
    admin = await s.login(ADMIN.login, ADMIN.password);
    await s.request('POST', '/api/v2/admin/account', { login: 'kim', state: 'Active', admin: false, password: 'kim-password' }, { token: admin });
    kim = await s.login('kim', 'kim-password');
  });
  afterAll(() => s.stop());

  const search = (token: string, qs = '') => s.request<{ items: ListItem[] }>('GET', `/api/v2/sec/share/search${qs}`, undefined, { token });

  it('shows details with every field and files, and 404 to anyone else', async () => {
    const { id, files } = await shareWithFiles(s, admin, [{ name: 'a.txt', content: 'hello', type: 'text/plain' }], {
      name: 'First',
      description: 'Hi',
      password: 'pw',
    });
    const d = await shareDetail(s, admin, id);
    expect(d).toMatchObject({ id, name: 'First', aliasId: null, aliasName: null, validity: DAY, maxViews: 10, password: true, descriptionRaw: 'Hi', description: 'Hi', publishInfo: null });
    expect(d.files).toHaveLength(1);
    expect(files['a.txt']).toMatchObject({ filename: 'a.txt', size: 5, storedSize: 5 });
    expect((await s.request('GET', `/api/v2/sec/share/${id}`, undefined, { token: kim })).status).toBe(404);
    expect((await s.request('GET', '/api/v2/sec/share/unknown', undefined, { token: admin })).status).toBe(404);
    expect((await s.request('GET', '/api/v2/sec/share/bad%20id', undefined, { token: admin })).status).toBe(400);
    expect((await s.request('GET', `/api/v2/sec/share/${id}`)).status).toBe(401);
  });

  it('changes name, description, validity, max views and password with the reference messages', async () => {
    const id = await createShare(s, admin);
    const post = (what: string, value: unknown, token = admin) => s.request('POST', `/api/v2/sec/share/${id}/${what}`, { value }, { token });
    const del = (what: string, token = admin) => s.request('DELETE', `/api/v2/sec/share/${id}/${what}`, undefined, { token });
    expect((await post('name', 'Named')).body).toEqual({ success: true, message: 'Name updated.', code: 'share.name-updated' });
    expect((await shareDetail(s, admin, id)).name).toBe('Named');
    expect((await del('name')).body).toEqual({ success: true, message: 'Name deleted.', code: 'share.name-deleted' });
    expect((await shareDetail(s, admin, id)).name).toBeNull();
    expect((await post('description', '**bold**')).body).toEqual({ success: true, message: 'Description updated.', code: 'share.description-updated' });
    // markdown, rendered by the client (without raw HTML, see test/unit/renderer/markdown.test.ts)
    expect((await shareDetail(s, admin, id)).description).toBe('**bold**');
    expect((await post('validity', 2 * DAY)).body).toEqual({ success: true, message: 'Validity updated.', code: 'share.validity-updated' });
    expect((await post('validity', 31 * DAY)).body).toEqual({ success: false, message: 'Maximum validity (30 days) exceeded', code: 'share.validity-exceeded' });
    expect((await shareDetail(s, admin, id)).validity).toBe(2 * DAY);
    expect((await post('maxviews', 3)).body).toEqual({ success: true, message: 'Max. views updated.', code: 'share.max-views-updated' });
    expect((await shareDetail(s, admin, id)).maxViews).toBe(3);
    expect((await post('password', 'secret')).body).toEqual({ success: true, message: 'Password updated.', code: 'share.password-updated' });
    expect((await shareDetail(s, admin, id)).password).toBe(true);
    expect((await post('password', '')).body).toEqual({ success: true, message: 'Password deleted.', code: 'share.password-deleted' });
    expect((await shareDetail(s, admin, id)).password).toBe(false);
    await post('password', 'again');
    expect((await del('password')).body).toEqual({ success: true, message: 'Password deleted.', code: 'share.password-deleted' });
    expect((await shareDetail(s, admin, id)).password).toBe(false);

    // 400 for malformed values, 404 for somebody else's share, 401 without a token
    for (const [what, value] of [['maxviews', 0], ['maxviews', -1], ['maxviews', 'x'], ['validity', 0], ['name', 5], ['name', 'x'.repeat(255)], ['validity', 1.5]] as const) {
      expect((await post(what, value)).status, `${what} ${value}`).toBe(400);
    }
    expect((await s.request('POST', `/api/v2/sec/share/${id}/name`, {}, { token: admin })).status).toBe(400);
    expect((await s.request('POST', `/api/v2/sec/share/${id}/name`, undefined, { token: admin, raw: '{bad', headers: { 'Content-Type': 'application/json' } })).status).toBe(400);
    for (const what of ['name', 'description', 'validity', 'maxviews', 'password']) {
      expect((await post(what, what === 'validity' || what === 'maxviews' ? 1 : 'x', kim)).status, what).toBe(404);
    }
    expect((await del('name', kim)).status).toBe(404);
    expect((await del('password', kim)).status).toBe(404);
    expect((await s.request('POST', `/api/v2/sec/share/${id}/name`, { value: 'x' })).status).toBe(401);
  });

  it('publishes, re-dates, renews the publish id on request, never resets views, and unpublishes', async () => {
    const id = await createShare(s, admin, { validity: DAY });
    const pid = await publish(s, admin, id);
    let d = await shareDetail(s, admin, id);
    const t0 = clock.now();
    expect(d.publishInfo).toEqual({ id: pid, enabled: true, views: 0, publishDate: t0, publishUntil: t0 + DAY, expired: false, lastAccess: null });
    expect((await s.request('GET', `/api/v2/open/share/${pid}`)).status).toBe(200);

    clock.advance(1000);
    expect(await publish(s, admin, id)).toBe(pid);
    d = await shareDetail(s, admin, id);
    expect(d.publishInfo).toMatchObject({ id: pid, publishDate: t0 + 1000, publishUntil: t0 + 1000 + DAY, views: 1 });

    // validity changes move the end of a published share
    await s.request('POST', `/api/v2/sec/share/${id}/validity`, { value: 2 * DAY }, { token: admin });
    expect((await shareDetail(s, admin, id)).publishInfo!.publishUntil).toBe(t0 + 1000 + 2 * DAY);

    const pid2 = await publish(s, admin, id, false);
    expect(pid2).not.toBe(pid);
    expect((await shareDetail(s, admin, id)).publishInfo!.views).toBe(1);
    expect((await s.request('GET', `/api/v2/open/share/${pid}`)).status).toBe(404);

    expect((await s.request('DELETE', `/api/v2/sec/share/${id}/publish`, undefined, { token: admin })).body).toEqual({ success: true, message: 'Share unpublished.', code: 'share.unpublished' });
    expect((await shareDetail(s, admin, id)).publishInfo).toMatchObject({ id: pid2, enabled: false });
    expect((await s.request('GET', `/api/v2/open/share/${pid2}`)).status).toBe(404);

    expect((await s.request('POST', `/api/v2/sec/share/${id}/publish`, {}, { token: admin })).status).toBe(400);
    expect((await s.request('POST', `/api/v2/sec/share/${id}/publish`, undefined, { token: admin })).status).toBe(400);
    expect((await s.request('POST', `/api/v2/sec/share/${id}/publish`, { reuseId: true }, { token: kim })).status).toBe(404);
    expect((await s.request('DELETE', `/api/v2/sec/share/${id}/publish`, undefined, { token: kim })).status).toBe(404);

    clock.advance(3 * DAY);
    expect((await shareDetail(s, admin, id)).publishInfo!.expired).toBe(true);
  });

  it('deletes one file of the right share only, and whole shares', async () => {
    const a = await shareWithFiles(s, admin, [
      { name: 'one.txt', content: '1' },
      { name: 'two.txt', content: '22' },
    ]);
    const b = await shareWithFiles(s, admin, [{ name: 'other.txt', content: '3' }]);
    // Sharry ignored the share id of this route; here the file must belong to it
    expect((await s.request('DELETE', `/api/v2/sec/share/${a.id}/file/${b.files['other.txt']!.id}`, undefined, { token: admin })).status).toBe(404);
    expect((await s.request('DELETE', `/api/v2/sec/share/${a.id}/file/${a.files['one.txt']!.id}`, undefined, { token: kim })).status).toBe(404);
    const del = await s.request('DELETE', `/api/v2/sec/share/${a.id}/file/${a.files['one.txt']!.id}`, undefined, { token: admin });
    expect(del.body).toEqual({ success: true, message: 'File deleted.', code: 'share.file-deleted' });
    expect((await shareDetail(s, admin, a.id)).files.map((f) => f.filename)).toEqual(['two.txt']);
    expect((await shareDetail(s, admin, b.id)).files).toHaveLength(1);
    expect((await s.request('GET', `/api/v2/sec/share/${a.id}/file/${a.files['one.txt']!.id}`, undefined, { token: admin, unchecked: true })).status).toBe(404);

    expect((await s.request('DELETE', `/api/v2/sec/share/${a.id}`, undefined, { token: kim })).status).toBe(404);
    expect((await s.request('DELETE', `/api/v2/sec/share/${a.id}`, undefined, { token: admin })).body).toEqual({ success: true, message: 'Share deleted.', code: 'share.deleted' });
    expect((await s.request('GET', `/api/v2/sec/share/${a.id}`, undefined, { token: admin })).status).toBe(404);
    expect((await s.request('DELETE', `/api/v2/sec/share/${a.id}`, undefined, { token: admin })).status).toBe(404);
    expect((await shareDetail(s, admin, b.id)).files).toHaveLength(1);
  });

  it('searches by name, id, description, ignoring case, newest first, paged and capped', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      clock.advance(1000);
      ids.push(await createShare(s, kim, { name: `Holiday ${i}`, description: i === 3 ? 'Pictures of the BEACH' : null }));
    }
    const { id: withFiles } = await shareWithFiles(s, kim, [{ name: 'x.bin', content: 'abc' }, { name: 'y.bin', content: 'de' }], { name: 'Files' });
    const first = await search(kim, '?q=holiday&pageSize=3');
    expect(first.body.items.map((i) => i.name)).toEqual(['Holiday 6', 'Holiday 5', 'Holiday 4']);
    const second = await search(kim, '?q=HOLIDAY&pageSize=3&page=3');
    expect(second.body.items.map((i) => i.name)).toEqual(['Holiday 0']);
    // capped at max-page-size (5)
    expect((await search(kim, '?pageSize=1000')).body.items).toHaveLength(5);
    expect((await search(kim)).body.items).toHaveLength(5);
    expect((await search(kim, '?q=beach')).body.items.map((i) => i.id)).toEqual([ids[3]]);
    expect((await search(kim, `?q=${ids[5]!.slice(2, 20)}`)).body.items.map((i) => i.id)).toEqual([ids[5]]);
    expect((await search(kim, '?q=%25')).body.items).toEqual([]);
    const item = (await search(kim, '?q=files')).body.items[0]!;
    expect(item).toEqual({
      id: withFiles,
      name: 'Files',
      autoNamed: false,
      sender: null,
      filesKind: 'file',
      aliasName: null,
      aliasInfo: null,
      validity: DAY,
      maxViews: 10,
      password: false,
      created: clock.now(),
      files: 2,
      size: 5,
      published: null,
      views: 0,
      publishUntil: null,
      downloaded: null,
    });
    // other accounts' shares are not found
    expect((await search(admin, '?q=holiday')).body.items).toEqual([]);
    for (const qs of ['?page=0', '?pageSize=0', '?page=x', '?pageSize=-1']) expect((await search(kim, qs)).status, qs).toBe(400);
    expect((await s.request('GET', '/api/v2/sec/share/search')).status).toBe(401);
  });

  it('reports published as null, true or false (expired)', async () => {
    const id = await createShare(s, kim, { name: 'pubstate', validity: DAY });
    const state = async () => (await search(kim, '?q=pubstate')).body.items[0]!.published;
    expect(await state()).toBeNull();
    await publish(s, kim, id);
    expect(await state()).toBe(true);
    clock.advance(DAY);
    expect(await state()).toBe(false);
    await s.request('DELETE', `/api/v2/sec/share/${id}/publish`, undefined, { token: kim });
    expect(await state()).toBeNull();
  });

  it('carries the views counted and the end of the publication, so the list can tell used-up views from expiry', async () => {
    const id = await createShare(s, kim, { name: 'viewstate', validity: DAY, maxViews: 2 });
    const item = async () => (await search(kim, '?q=viewstate')).body.items[0]!;
    expect(await item()).toMatchObject({ published: null, views: 0, maxViews: 2, publishUntil: null });
    const pid = await publish(s, kim, id);
    expect(await item()).toMatchObject({ published: true, views: 0, publishUntil: clock.now() + DAY });
    // two recipients (no share cookie, no session) use up both views
    for (let i = 0; i < 2; i++) expect((await s.request('GET', `/api/v2/open/share/${pid}`)).status).toBe(200);
    expect((await s.request('GET', `/api/v2/open/share/${pid}`)).status).toBe(404);
    expect(await item()).toMatchObject({ published: true, views: 2, maxViews: 2, publishUntil: clock.now() + DAY });
    // unpublishing keeps the count but ends the publication
    await s.request('DELETE', `/api/v2/sec/share/${id}/publish`, undefined, { token: kim });
    expect(await item()).toMatchObject({ published: null, views: 2, publishUntil: null });
  });

  it('refuses to remove a password when passwords are required', async () => {
    const t = await startServer({ config: { backend: { share: { 'require-share-password': true } } } });
    try {
      const token = await t.login(ADMIN.login, ADMIN.password);
      const id = await createShare(t, token, { password: 'pw' });
      const refused = { success: false, message: 'Password cannot be removed when password protection is required.', code: 'share.password-mandatory' };
      expect((await t.request('DELETE', `/api/v2/sec/share/${id}/password`, undefined, { token })).body).toEqual(refused);
      expect((await t.request('POST', `/api/v2/sec/share/${id}/password`, { value: '' }, { token })).body).toEqual(refused);
      expect(((await t.request('GET', `/api/v2/sec/share/${id}`, undefined, { token })).body as unknown as ShareDetailBody).password).toBe(true);
      expect((await t.request('POST', `/api/v2/sec/share/${id}/password`, { value: 'new' }, { token })).body).toEqual({ success: true, message: 'Password updated.', code: 'share.password-updated' });
    } finally {
      await t.stop();
    }
  });
});

describe('publishing twice at once', () => {
  it('publishes once with one publish id', async () => {
    const s = await startServer();
    try {
      const token = await s.login(ADMIN.login, ADMIN.password);
      const id = await createShare(s, token);
      const results = await Promise.all(Array.from({ length: 5 }, () => s.request('POST', `/api/v2/sec/share/${id}/publish`, { reuseId: true }, { token })));
      expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      expect((await shareDetail(s, token, id)).publishInfo).toMatchObject({ enabled: true, views: 0 });
    } finally {
      await s.stop();
    }
  });
});
