import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../support/server.js';
import { createAlias, createUser, DAY, guest, guestShare, type AliasBody, type Result, type User } from './support.js';

describe('aliases: create, read, change, delete and who may', () => {
  let s: TestServer;
  let alice: User;
  let bob: User;
  let carol: User;

  beforeAll(async () => {
    s = await startServer({ config: { backend: { share: { 'max-validity': '30 days', 'max-size': '5M' } } } });
    alice = await createUser(s, 'alice');
    bob = await createUser(s, 'bob');
    carol = await createUser(s, 'carol');
  });
  afterAll(() => s.stop());

  const get = (u: User, id: string) => s.request<AliasBody>('GET', `/api/v2/sec/alias/${id}`, undefined, { token: u.token });
  const modify = (u: User, id: string, body: object) => s.request<Result>('POST', `/api/v2/sec/alias/${id}`, body, { token: u.token });
  const list = async (u: User, q = '') => (await s.request<{ items: AliasBody[] }>('GET', `/api/v2/sec/alias${q ? `?q=${q}` : ''}`, undefined, { token: u.token })).body.items;

  it('creates an alias with a random id when none is given, and shows it to its owner', async () => {
    const res = await s.request<Result>('POST', '/api/v2/sec/alias', { name: 'Holiday photos', validity: 2 * DAY, enabled: true, members: [] }, { token: alice.token });
    expect(res.body).toMatchObject({ success: true, message: 'Alias successfully created.' });
    expect(res.body.id).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    const detail = await get(alice, res.body.id!);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ id: res.body.id, name: 'Holiday photos', validity: 2 * DAY, owner: 'alice', enabled: true, members: { items: [] } });
    expect(detail.body.created).toBeGreaterThan(0);
    // an empty id is no id
    const empty = await s.request<Result>('POST', '/api/v2/sec/alias', { id: '', name: 'x', validity: DAY, enabled: true }, { token: alice.token });
    expect(empty.body.success).toBe(true);
    expect(empty.body.id).not.toBe('');
  });

  it('uses a given id when it is a free ident, refuses a taken one and rejects a malformed one', async () => {
    const id = await createAlias(s, alice, { id: 'alice-inbox', name: 'Inbox' });
    expect(id).toBe('alice-inbox');
    const taken = await s.request<Result>('POST', '/api/v2/sec/alias', { id: 'alice-inbox', name: 'Mine', validity: DAY, enabled: true }, { token: bob.token });
    expect(taken.status).toBe(200);
    expect(taken.body).toEqual({ success: false, message: "The alias id 'alice-inbox' is already taken.", code: 'alias.id-taken', id: '' });
    const bad = await s.request<Result>('POST', '/api/v2/sec/alias', { id: 'no spaces/here', name: 'x', validity: DAY, enabled: true }, { token: bob.token });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('id');
  });

  it('checks the validity against max-validity at creation and at every change', async () => {
    const over = await s.request<Result>('POST', '/api/v2/sec/alias', { name: 'x', validity: 31 * DAY, enabled: true }, { token: alice.token });
    expect(over.body).toEqual({ success: false, message: 'Maximum validity (30 days) exceeded', code: 'alias.validity-exceeded', id: '' });
    const id = await createAlias(s, alice, { validity: 30 * DAY });
    const change = await modify(alice, id, { name: 'x', validity: 31 * DAY, enabled: true });
    expect(change.body).toEqual({ success: false, message: 'Maximum validity (30 days) exceeded', code: 'alias.validity-exceeded', id: '' });
    expect((await get(alice, id)).body.validity).toBe(30 * DAY);
  });

  it('rejects malformed changes with 400 naming the field', async () => {
    const cases: [object, string][] = [
      [{ validity: DAY, enabled: true }, 'name'],
      [{ name: '', validity: DAY, enabled: true }, 'name'],
      [{ name: 'x', validity: 0, enabled: true }, 'validity'],
      [{ name: 'x', validity: DAY, enabled: 'yes' }, 'enabled'],
      [{ name: 'x', validity: DAY, enabled: true, members: ['bad id'] }, 'members'],
    ];
    for (const [body, field] of cases) {
      const res = await s.request<Result>('POST', '/api/v2/sec/alias', body, { token: alice.token });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toContain(field);
    }
    // a field the schema does not name is ignored, not refused
    const extra = await s.request<Result>('POST', '/api/v2/sec/alias', { name: 'x', validity: DAY, enabled: true, extra: 1 }, { token: alice.token });
    expect(extra.body).toMatchObject({ success: true });
  });

  it('stores members as account ids; unknown ids fail, the owner and duplicates are dropped', async () => {
    const unknown = await s.request<Result>('POST', '/api/v2/sec/alias', { name: 'x', validity: DAY, enabled: true, members: [bob.id, 'no-such-account'] }, { token: alice.token });
    expect(unknown.body).toEqual({ success: false, message: 'Unknown member account(s): no-such-account', code: 'alias.unknown-members', id: '' });
    const id = await createAlias(s, alice, { name: 'Team', members: [bob.id, alice.id, bob.id, carol.id] });
    const detail = (await get(alice, id)).body;
    expect(detail.members.items).toEqual([
      { id: bob.id, login: 'bob' },
      { id: carol.id, login: 'carol' },
    ]);
    // the member list is replaced on change
    await modify(alice, id, { name: 'Team', validity: DAY, enabled: true, members: [carol.id] });
    expect((await get(alice, id)).body.members.items).toEqual([{ id: carol.id, login: 'carol' }]);
    const bad = await modify(alice, id, { name: 'Team', validity: DAY, enabled: true, members: ['ghost'] });
    expect(bad.body.success).toBe(false);
    expect((await get(alice, id)).body.members.items).toEqual([{ id: carol.id, login: 'carol' }]);
  });

  it('lets members see the alias but only the owner change or delete it; others get 404', async () => {
    const id = await createAlias(s, alice, { name: 'Shared box', members: [bob.id] });
    expect((await get(bob, id)).status).toBe(200);
    expect((await get(bob, id)).body.owner).toBe('alice');
    expect((await get(carol, id)).status).toBe(404);
    expect((await list(bob)).map((a) => a.id)).toContain(id);
    expect((await list(carol)).map((a) => a.id)).not.toContain(id);

    const change = { name: 'Taken over', validity: DAY, enabled: true, members: [bob.id] };
    const byMember = await modify(bob, id, change);
    expect(byMember.status).toBe(403);
    expect((await modify(carol, id, change)).status).toBe(404);
    expect((await s.request('DELETE', `/api/v2/sec/alias/${id}`, undefined, { token: bob.token })).status).toBe(403);
    expect((await s.request('DELETE', `/api/v2/sec/alias/${id}`, undefined, { token: carol.token })).status).toBe(404);
    expect((await get(alice, id)).body).toMatchObject({ name: 'Shared box', members: { items: [{ id: bob.id, login: 'bob' }] } });
    expect((await get(alice, 'no-such-alias')).status).toBe(404);
    expect((await modify(alice, 'no-such-alias', change)).status).toBe(404);
  });

  it('keeps the id when a change has none, and moves the alias, its members and shares to a new id', async () => {
    const id = await createAlias(s, alice, { name: 'Before', members: [bob.id] });
    const kept = await modify(alice, id, { name: 'After', validity: 3 * DAY, enabled: true, members: [bob.id] });
    expect(kept.body).toEqual({ success: true, message: 'Alias successfully modified.', code: 'alias.modified', id });
    expect((await get(alice, id)).body).toMatchObject({ name: 'After', validity: 3 * DAY });
    const same = await modify(alice, id, { id, name: 'After', validity: 3 * DAY, enabled: true, members: [bob.id] });
    expect(same.body.id).toBe(id);

    const shareId = await guestShare(s, id);
    const moved = await modify(alice, id, { id: 'alice-moved', name: 'Moved', validity: 3 * DAY, enabled: true, members: [bob.id] });
    expect(moved.body).toEqual({ success: true, message: 'Alias successfully modified.', code: 'alias.modified', id: 'alice-moved' });
    expect((await get(alice, id)).status).toBe(404);
    expect((await get(bob, 'alice-moved')).body).toMatchObject({ id: 'alice-moved', name: 'Moved', members: { items: [{ id: bob.id }] } });
    const share = await s.request<{ aliasId: string; aliasName: string }>('GET', `/api/v2/sec/share/${shareId}`, undefined, { token: bob.token });
    expect(share.body).toMatchObject({ aliasId: 'alice-moved', aliasName: 'Moved' });
    // the old id no longer opens the guest zone, the new one does and still reaches the share
    expect((await s.request('POST', '/api/v2/alias/upload/new', { validity: 0, maxViews: 1 }, { headers: guest(id) })).status).toBe(401);
    const head = await fetch(`${s.url}/api/v2/alias/upload/${shareId}/files/tus`, { method: 'OPTIONS', headers: guest('alice-moved') });
    expect(head.status).toBe(204);

    await createAlias(s, bob, { id: 'bob-box' });
    const taken = await modify(alice, 'alice-moved', { id: 'bob-box', name: 'x', validity: DAY, enabled: true });
    expect(taken.body).toEqual({ success: false, message: "The alias id 'bob-box' is already taken.", code: 'alias.id-taken', id: '' });
    expect((await get(alice, 'alice-moved')).status).toBe(200);
  });

  it('deletes an alias: its shares stay, without the alias', async () => {
    const id = await createAlias(s, alice, { name: 'Short-lived', members: [bob.id] });
    const shareId = await guestShare(s, id);
    const del = await s.request<Result>('DELETE', `/api/v2/sec/alias/${id}`, undefined, { token: alice.token });
    expect(del.body).toEqual({ success: true, message: 'Alias deleted.', code: 'alias.deleted' });
    expect((await get(alice, id)).status).toBe(404);
    const share = await s.request<{ aliasId: string | null; aliasName: string | null }>('GET', `/api/v2/sec/share/${shareId}`, undefined, { token: alice.token });
    expect(share.status).toBe(200);
    expect(share.body).toMatchObject({ aliasId: null, aliasName: null });
    // the member saw the share through the alias only
    expect((await s.request('GET', `/api/v2/sec/share/${shareId}`, undefined, { token: bob.token })).status).toBe(404);
    expect((await s.request('DELETE', `/api/v2/sec/alias/${id}`, undefined, { token: alice.token })).status).toBe(404);
  });

  it('lists owned and member aliases, filtered by name', async () => {
    const dave = await createUser(s, 'dave');
    const erin = await createUser(s, 'erin');
    const own = await createAlias(s, dave, { name: 'Scans from the office' });
    const member = await createAlias(s, erin, { name: 'Erin office drop', members: [dave.id] });
    await createAlias(s, erin, { name: 'Erin private' });
    const all = await list(dave);
    expect(all.map((a) => a.id).sort()).toEqual([own, member].sort());
    expect(all.find((a) => a.id === member)).toMatchObject({ owner: 'erin', members: { items: [{ id: dave.id, login: 'dave' }] } });
    expect((await list(dave, 'SCANS')).map((a) => a.id)).toEqual([own]);
    expect((await list(dave, 'office')).length).toBe(2);
    expect(await list(dave, 'nothing-like-this')).toEqual([]);
  });

  it('lists other accounts as member candidates', async () => {
    const res = await s.request<{ items: { id: string; login: string }[] }>('GET', '/api/v2/sec/alias-member', undefined, { token: alice.token });
    expect(res.status).toBe(200);
    const logins = res.body.items.map((a) => a.login);
    expect(logins).toContain('bob');
    expect(logins).toContain('admin');
    expect(logins).not.toContain('alice');
    expect(res.body.items.find((a) => a.login === 'bob')).toEqual({ id: bob.id, login: 'bob' });
    const q = await s.request<{ items: { login: string }[] }>('GET', '/api/v2/sec/alias-member?q=CAR', undefined, { token: alice.token });
    expect(q.body.items.map((a) => a.login)).toEqual(['carol']);
    expect((await s.request('GET', '/api/v2/sec/alias-member')).status).toBe(401);
  });

  it('shows an enabled alias to the guest page at /open/alias/{id}; unknown and disabled ones are 404', async () => {
    const id = await createAlias(s, alice, { name: 'For the guest page', validity: 4 * DAY });
    const open = await s.request('GET', `/api/v2/open/alias/${id}`);
    expect(open.status).toBe(200);
    expect(open.body).toEqual({ id, name: 'For the guest page', enabled: true, validity: 4 * DAY, maxSize: 5 * 1024 * 1024, members: 0, message: null, expires: null });
    await modify(alice, id, { name: 'For the guest page', validity: 4 * DAY, enabled: false });
    expect((await s.request('GET', `/api/v2/open/alias/${id}`)).status).toBe(404);
    expect((await s.request('GET', '/api/v2/open/alias/no-such-alias')).status).toBe(404);
    expect((await s.request('GET', '/api/v2/open/alias/bad%20id')).status).toBe(400);
  });

  // Regression: the guest page's answer carried the owner's login, half of a
  // credential, to anyone holding the link.
  it('never tells a guest the owner\'s login or any other account data', async () => {
    const id = await createAlias(s, alice, { name: 'Drop box', validity: DAY, members: [bob.id] });
    const open = await s.request('GET', `/api/v2/open/alias/${id}`);
    expect(open.status).toBe(200);
    expect(Object.keys(open.body).sort()).toEqual(['enabled', 'expires', 'id', 'maxSize', 'members', 'message', 'name', 'validity']);
    expect(open.text).not.toMatch(/alice|bob/);
  });

  it('needs a token for every /sec/alias route', async () => {
    expect((await s.request('GET', '/api/v2/sec/alias')).status).toBe(401);
    expect((await s.request('POST', '/api/v2/sec/alias', { name: 'x', validity: DAY, enabled: true })).status).toBe(401);
  });
});

describe('aliases with alias-member-enabled = false', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ config: { 'alias-member-enabled': false } });
  });
  afterAll(() => s.stop());

  it('answers 404 to the member search and tells the client', async () => {
    const token = await s.login('admin', 'admin-test-password');
    const res = await s.request('GET', '/api/v2/sec/alias-member', undefined, { token });
    expect(res.status).toBe(404);
    const settings = await s.request<{ aliasMemberEnabled: boolean }>('GET', '/api/v2/open/info/appconfig');
    expect(settings.body.aliasMemberEnabled).toBe(false);
  });
});
