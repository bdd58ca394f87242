import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startServer, type TestServer } from '../../support/server.js';

interface Account {
  id: string;
  login: string;
  source: string;
  state: string;
  admin: boolean;
  email: string | null;
  loginCount: number;
  shares: number;
  lastLogin: number | null;
  created: number;
}

describe('account administration', () => {
  let s: TestServer;
  let admin: string;
  let adminId: string;
  beforeAll(async () => {
    s = await startServer();
    admin = await s.login(ADMIN.login, ADMIN.password);
    adminId = String((await s.request('POST', '/api/v2/sec/auth/session', undefined, { token: admin })).body['id']);
  });
  afterAll(() => s.stop());

  const byLogin = async (login: string): Promise<Account> => {
    const res = await s.request<{ items: Account[] }>('GET', `/api/v2/admin/account?q=${login}`, undefined, { token: admin });
    const found = res.body.items.find((a) => a.login === login);
    if (!found) throw new Error(`no account ${login}`);
    return found;
  };

  it('creates internal accounts, refuses duplicates, and lists them with every field', async () => {
    const create = await s.request('POST', '/api/v2/admin/account', { login: 'Kim', state: 'active', admin: false, password: 'kim-password', email: 'kim@example.test' }, { token: admin });
    expect(create.body).toEqual({ success: true, message: 'Account successfully created.', code: 'account.created' });
    const dup = await s.request('POST', '/api/v2/admin/account', { login: 'kim', state: 'Active', admin: true, password: 'kim-other-password' }, { token: admin });
    expect(dup.body).toEqual({ success: false, message: "The account 'kim' already exists.", code: 'account.exists' });
    const kim = await byLogin('kim');
    expect(kim).toMatchObject({ login: 'kim', source: 'intern', state: 'Active', admin: false, email: 'kim@example.test', loginCount: 0, shares: 0, lastLogin: null });
    expect(typeof kim.created).toBe('number');
    await s.login('kim', 'kim-password');
    expect((await byLogin('kim')).loginCount).toBe(1);
    expect((await byLogin('kim')).lastLogin).toBeGreaterThan(0);
    const all = await s.request<{ items: Account[] }>('GET', '/api/v2/admin/account', undefined, { token: admin });
    expect(all.body.items.map((a) => a.login)).toEqual(['admin', 'kim']);
  });

  it('answers 400 for invalid creation requests', async () => {
    for (const body of [
      { login: 'bad login', state: 'Active', admin: false, password: 'x' },
      { login: 'lee', state: 'Sleeping', admin: false, password: 'x' },
      { login: 'lee', state: 'Active', admin: 'yes', password: 'x' },
      { login: 'lee', state: 'Active', admin: false },
      { login: 'lee', state: 'Active', admin: false, password: 'x', email: 'nope' },
    ]) {
      const res = await s.request('POST', '/api/v2/admin/account', body, { token: admin });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });

  it('gets one account by id and answers 404 for an unknown id', async () => {
    const kim = await byLogin('kim');
    const res = await s.request<Account>('GET', `/api/v2/admin/account/${kim.id}`, undefined, { token: admin });
    expect(res.body).toEqual(kim);
    expect((await s.request('GET', '/api/v2/admin/account/unknown-id', undefined, { token: admin })).status).toBe(404);
    expect((await s.request('GET', '/api/v2/admin/account/bad%20id', undefined, { token: admin })).status).toBe(400);
  });

  it('modifies state, admin flag, e-mail (omitted removes it) and password', async () => {
    const kim = await byLogin('kim');
    const res = await s.request('POST', `/api/v2/admin/account/${kim.id}`, { state: 'Active', admin: true, password: 'kim-new-password' }, { token: admin });
    expect(res.body).toEqual({ success: true, message: 'Account successfully modified.', code: 'account.modified' });
    const after = await byLogin('kim');
    expect(after).toMatchObject({ admin: true, email: null });
    expect((await s.request('POST', '/api/v2/open/auth/login', { account: 'kim', password: 'kim-new-password' })).body['admin']).toBe(true);
    const keep = await s.request('POST', `/api/v2/admin/account/${kim.id}`, { state: 'Active', admin: false, email: 'k@example.test', password: '' }, { token: admin });
    expect(keep.body['success']).toBe(true);
    expect((await s.request('POST', '/api/v2/open/auth/login', { account: 'kim', password: 'kim-new-password' })).body['success']).toBe(true);
    expect((await s.request('POST', '/api/v2/admin/account/unknown-id', { state: 'Active', admin: false }, { token: admin })).status).toBe(404);
  });

  it('takes admin rights away at once when an admin is demoted', async () => {
    await s.request('POST', '/api/v2/admin/account', { login: 'max', state: 'Active', admin: true, password: 'max-password' }, { token: admin });
    const maxToken = await s.login('max', 'max-password');
    expect((await s.request('GET', '/api/v2/admin/account', undefined, { token: maxToken })).status).toBe(200);
    const max = await byLogin('max');
    await s.request('POST', `/api/v2/admin/account/${max.id}`, { state: 'Active', admin: false }, { token: admin });
    expect((await s.request('GET', '/api/v2/admin/account', undefined, { token: maxToken })).status).toBe(403);
  });

  it('does not let an admin disable, demote or delete their own account', async () => {
    const demote = await s.request('POST', `/api/v2/admin/account/${adminId}`, { state: 'Active', admin: false }, { token: admin });
    expect(demote.body['success']).toBe(false);
    const del = await s.request('DELETE', `/api/v2/admin/account/${adminId}`, undefined, { token: admin });
    expect(del.body['success']).toBe(false);
    expect((await s.request('GET', '/api/v2/admin/account', undefined, { token: admin })).status).toBe(200);
  });

  it('deletes an account; its token stops working; a second delete is 404', async () => {
    await s.request('POST', '/api/v2/admin/account', { login: 'ned', state: 'Active', admin: false, password: 'ned-password' }, { token: admin });
    const nedToken = await s.login('ned', 'ned-password');
    const ned = await byLogin('ned');
    expect((await s.request('DELETE', `/api/v2/admin/account/${ned.id}`, undefined, { token: admin })).body).toEqual({ success: true, message: 'Account deleted.', code: 'account.deleted' });
    expect((await s.request('POST', '/api/v2/sec/auth/session', undefined, { token: nedToken })).status).toBe(401);
    expect((await s.request('DELETE', `/api/v2/admin/account/${ned.id}`, undefined, { token: admin })).status).toBe(404);
  });

  it('refuses non-admins with 403 and anonymous callers with 401 on every admin route', async () => {
    await s.request('POST', '/api/v2/open/signup/register', { login: 'olga', password: 'olga-password' });
    const user = await s.login('olga', 'olga-password');
    const kim = await byLogin('kim');
    const routes: Array<[string, string, unknown]> = [
      ['GET', '/api/v2/admin/account', undefined],
      ['POST', '/api/v2/admin/account', { login: 'x', state: 'Active', admin: true, password: 'x' }],
      ['GET', `/api/v2/admin/account/${kim.id}`, undefined],
      ['POST', `/api/v2/admin/account/${kim.id}`, { state: 'Active', admin: true }],
      ['DELETE', `/api/v2/admin/account/${kim.id}`, undefined],
    ];
    for (const [m, p, b] of routes) {
      expect((await s.request(m, p, b, { token: user })).status, `${m} ${p}`).toBe(403);
      expect((await s.request(m, p, b)).status, `${m} ${p}`).toBe(401);
    }
  });
});
