/**
 * Upload-link ids are retired, never handed to another account.
 *
 * Regression: the id of a deleted or renamed upload link was free for anyone
 * to claim, so guests who kept the old link sent their files to a stranger.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../support/server.js';
import { createAlias, createUser, DAY, type Result, type User } from './support.js';

describe('retired upload-link ids', () => {
  let s: TestServer;
  let alice: User;
  let bob: User;
  beforeAll(async () => {
    s = await startServer();
    alice = await createUser(s, 'alice');
    bob = await createUser(s, 'bob');
  });
  afterAll(() => s.stop());

  const create = (u: User, id: string) => s.request<Result>('POST', '/api/v2/sec/alias', { id, name: 'Mine', validity: DAY, enabled: true, members: [] }, { token: u.token });
  const move = (u: User, from: string, to: string) =>
    s.request<Result>('POST', `/api/v2/sec/alias/${from}`, { id: to, name: 'Mine', validity: DAY, enabled: true, members: [] }, { token: u.token });
  const taken = (id: string) => ({ success: false, code: 'alias.id-taken', message: `The alias id '${id}' is already taken.` });

  it("a deleted link's id is not given to another account, by creation or by renaming; its owner may use it again", async () => {
    await createAlias(s, alice, { id: 'shop-inbox' });
    expect((await s.request<Result>('DELETE', '/api/v2/sec/alias/shop-inbox', undefined, { token: alice.token })).body.success).toBe(true);
    expect((await create(bob, 'shop-inbox')).body).toMatchObject(taken('shop-inbox'));
    const bobs = await createAlias(s, bob, { name: 'Bob' });
    expect((await move(bob, bobs, 'shop-inbox')).body).toMatchObject(taken('shop-inbox'));
    // guests of the old link find nothing, never bob's link
    expect((await s.request('GET', '/api/v2/open/alias/shop-inbox')).status).toBe(404);
    expect((await create(alice, 'shop-inbox')).body.success).toBe(true);
  });

  it("a renamed link's old id is not given to another account; its owner may move back", async () => {
    await createAlias(s, alice, { id: 'team-drop' });
    expect((await move(alice, 'team-drop', 'team-drop-2')).body.success).toBe(true);
    expect((await create(bob, 'team-drop')).body).toMatchObject(taken('team-drop'));
    expect((await move(alice, 'team-drop-2', 'team-drop')).body.success).toBe(true);
    // now the other one is retired
    expect((await create(bob, 'team-drop-2')).body).toMatchObject(taken('team-drop-2'));
  });

  it('the links of a deleted account keep their ids retired', async () => {
    const carol = await createUser(s, 'carol');
    await createAlias(s, carol, { id: 'carols-box' });
    const admin = await s.login('admin', 'admin-test-password');
    expect((await s.request<Result>('DELETE', `/api/v2/admin/account/${carol.id}`, undefined, { token: admin })).body.success).toBe(true);
    expect((await create(bob, 'carols-box')).body).toMatchObject(taken('carols-box'));
  });
});
