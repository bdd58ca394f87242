/**
 * Every name a guest or a user sets is cleaned before it is stored, as the
 * sender's name already was: bidirectional controls go, other controls and
 * line breaks become one space, white space is trimmed.
 *
 * Regression: share names a guest chose (and the names users gave shares and
 * upload links) kept bidi overrides and line breaks, so `invoice\u202Efdp.exe`
 * read as `invoiceexe.pdf` in the owner's list, and a name could break a
 * mail's subject line.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../support/server.js';
import { createAlias, createUser, DAY, guest, guestShare, multipartForm, postForm, type AliasBody, type User } from './support.js';

const DIRTY = ' invoice\u202Efdp.exe\r\nSubject: x\u2066\u0007 ';
const CLEAN = 'invoicefdp.exe Subject: x';

describe('names guests and users set', () => {
  let s: TestServer;
  let alice: User;
  beforeAll(async () => {
    s = await startServer();
    alice = await createUser(s, 'alice');
  });
  afterAll(() => s.stop());

  const shareName = async (id: string) =>
    (await s.request<{ name: string | null }>('GET', `/api/v2/sec/share/${id}`, undefined, { token: alice.token })).body.name;

  it('a guest share named at creation (JSON and multipart) keeps no bidi control or line break', async () => {
    const aliasId = await createAlias(s, alice, { name: 'Inbox' });
    expect(await shareName(await guestShare(s, aliasId, { name: DIRTY }))).toBe(CLEAN);
    const form = await postForm(s, '/api/v2/alias/upload', guest(aliasId), multipartForm({ name: DIRTY, validity: DAY, maxViews: 5 }, [{ name: 'a.txt', content: 'a' }]));
    expect(form.body.success, form.text).toBe(true);
    expect(await shareName(form.body.id!)).toBe(CLEAN);
  });

  it("a user's share name, at creation and when changed", async () => {
    const created = await s.request<{ id: string }>('POST', '/api/v2/sec/upload/new', { name: DIRTY, validity: DAY, maxViews: 5 }, { token: alice.token });
    expect(await shareName(created.body.id)).toBe(CLEAN);
    await s.request('POST', `/api/v2/sec/share/${created.body.id}/name`, { value: `renamed\u202E\n${DIRTY}` }, { token: alice.token });
    expect(await shareName(created.body.id)).toBe(`renamed ${CLEAN}`);
    // a name of nothing but controls is no name
    await s.request('POST', `/api/v2/sec/share/${created.body.id}/name`, { value: '\u202E\r\n' }, { token: alice.token });
    expect(await shareName(created.body.id)).toBeNull();
  });

  it("an upload link's name, at creation and when changed, also as the guest page shows it", async () => {
    const id = await createAlias(s, alice, { name: DIRTY });
    const get = async () => (await s.request<AliasBody>('GET', `/api/v2/sec/alias/${id}`, undefined, { token: alice.token })).body.name;
    expect(await get()).toBe(CLEAN);
    expect((await s.request('GET', `/api/v2/open/alias/${id}`)).body['name']).toBe(CLEAN);
    await s.request('POST', `/api/v2/sec/alias/${id}`, { name: `x\u2028${DIRTY}`, validity: DAY, enabled: true, members: [] }, { token: alice.token });
    expect(await get()).toBe(`x ${CLEAN}`);
  });
});
