/**
 * Ending sessions.
 *
 * Regression: tokens could not be revoked. A password change, an admin's
 * password reset and disabling an account left every token issued before
 * valid (a disabled and re-enabled account got its old sessions back), there
 * was no way to sign out everywhere, and each renewal issued a token of full
 * lifetime, so a session renewed in time lasted for ever. Now each account has
 * a session generation in the database, carried in its tokens and checked on
 * every authenticated request, and renewal never goes beyond `session-max`
 * after the login.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../server/common/clock.js';
import { ADMIN, startServer, type TestServer } from '../../support/server.js';

const SESSION = '/api/v2/sec/auth/session';
const EMAIL = '/api/v2/sec/settings/email';
const LOGOUT_ALL = '/api/v2/sec/auth/logout-all';

describe('session generations', () => {
  let s: TestServer;
  let admin: string;
  let n = 0;

  beforeAll(async () => {
    s = await startServer({ config: { 'rate-limit': { enabled: false } } });
    admin = await s.login(ADMIN.login, ADMIN.password);
  });
  afterAll(() => s.stop());

  /** A new internal account; returns its id. */
  const newUser = async (password: string): Promise<{ id: string; login: string }> => {
    const login = `user${++n}`;
    const res = await s.request('POST', '/api/v2/admin/account', { login, state: 'Active', admin: false, password }, { token: admin });
    expect(res.body['success']).toBe(true);
    const list = await s.request<{ items: Array<{ id: string }> }>('GET', `/api/v2/admin/account?q=${login}`, undefined, { token: admin });
    return { id: list.body.items[0]!.id, login };
  };
  const status = async (token: string) => (await s.request('GET', EMAIL, undefined, { token })).status;
  const renewStatus = async (token: string) => (await s.request('POST', SESSION, undefined, { token })).status;

  // Regression: changing one's own password ended the caller's own session too,
  // so the client that made the change was signed out (Sharry keeps it).
  it('a password change ends every other session, also renewed ones, and hands the caller a fresh token and cookie', async () => {
    const u = await newUser('first-password');
    const phone = await s.login(u.login, 'first-password');
    const laptop = await s.login(u.login, 'first-password');
    const renewed = String((await s.request('POST', SESSION, undefined, { token: laptop })).body['token']);
    const renewedPhone = String((await s.request('POST', SESSION, undefined, { token: phone })).body['token']);
    const change = await s.request('POST', '/api/v2/sec/settings/password', { oldPassword: 'first-password', newPassword: 'second-password' }, { token: phone });
    expect(change.body).toMatchObject({ success: true, message: 'Password successfully changed.', code: 'account.password-changed' });
    const fresh = String(change.body['token']);
    expect(fresh).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(change.headers.get('set-cookie')).toContain(`service_auth=${fresh}`);
    for (const token of [phone, renewedPhone, laptop, renewed]) {
      expect(await status(token)).toBe(401);
      expect(await renewStatus(token)).toBe(401);
    }
    expect(await status(fresh)).toBe(200);
    expect(await renewStatus(fresh)).toBe(200);
    expect(await status(await s.login(u.login, 'second-password'))).toBe(200);
    // a refused change hands out nothing
    const wrong = await s.request('POST', '/api/v2/sec/settings/password', { oldPassword: 'nope-nope', newPassword: 'third-password' }, { token: fresh });
    expect(wrong.body).toMatchObject({ success: false, token: null });
    expect(wrong.headers.get('set-cookie')).toBeNull();
  });

  // Regression: plain logout cleared the cookie only; a copied token kept
  // working and renewing until session-max.
  it('logout ends that session on every server, renewed tokens of it included, and no other session', async () => {
    const u = await newUser('users-password');
    const one = await s.login(u.login, 'users-password');
    const renewedOne = String((await s.request('POST', SESSION, undefined, { token: one })).body['token']);
    const two = await s.login(u.login, 'users-password');
    const res = await s.request('POST', '/api/v2/sec/auth/logout', undefined, { token: one });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'Logged out.', code: 'auth.logged-out' });
    expect(res.headers.get('set-cookie')).toMatch(/service_auth=;/);
    for (const token of [one, renewedOne]) {
      expect(await status(token)).toBe(401);
      expect(await renewStatus(token)).toBe(401);
    }
    expect(await status(two)).toBe(200);
    // with the cookie alone, as the web client signs out
    const three = await s.login(u.login, 'users-password');
    expect((await s.request('POST', '/api/v2/sec/auth/logout', undefined, { cookie: `service_auth=${three}` })).status).toBe(200);
    expect(await status(three)).toBe(401);
    expect(await status(two)).toBe(200);
  });

  it("an admin's password reset ends the account's sessions", async () => {
    const u = await newUser('users-password');
    const token = await s.login(u.login, 'users-password');
    const reset = await s.request('POST', `/api/v2/admin/account/${u.id}`, { state: 'Active', admin: false, password: 'reset-by-admin' }, { token: admin });
    expect(reset.body['success']).toBe(true);
    expect(await status(token)).toBe(401);
    // a change that touches neither password nor state keeps the sessions
    const other = await s.login(u.login, 'reset-by-admin');
    await s.request('POST', `/api/v2/admin/account/${u.id}`, { state: 'Active', admin: false, email: 'u@example.test' }, { token: admin });
    expect(await status(other)).toBe(200);
  });

  it('disabling ends the sessions for good: re-enabling does not bring them back', async () => {
    const u = await newUser('users-password');
    const token = await s.login(u.login, 'users-password');
    await s.request('POST', `/api/v2/admin/account/${u.id}`, { state: 'Disabled', admin: false }, { token: admin });
    expect(await status(token)).toBe(401);
    await s.request('POST', `/api/v2/admin/account/${u.id}`, { state: 'Active', admin: false }, { token: admin });
    expect(await status(token)).toBe(401);
    expect(await renewStatus(token)).toBe(401);
    expect(await status(await s.login(u.login, 'users-password'))).toBe(200);
  });

  it('"sign out everywhere" ends every session of the caller only, and clears the cookie', async () => {
    const u = await newUser('users-password');
    const one = await s.login(u.login, 'users-password');
    const two = await s.login(u.login, 'users-password');
    const someoneElse = await s.login(ADMIN.login, ADMIN.password);
    const res = await s.request('POST', LOGOUT_ALL, undefined, { token: one });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'Signed out everywhere.', code: 'auth.signed-out-everywhere' });
    expect(res.headers.get('set-cookie')).toMatch(/service_auth=;.*Expires=Thu, 01 Jan 1970/);
    expect(await status(one)).toBe(401);
    expect(await status(two)).toBe(401);
    expect(await status(someoneElse)).toBe(200);
    expect((await s.request('POST', LOGOUT_ALL, undefined, { token: one })).status).toBe(401);
    expect(await status(await s.login(u.login, 'users-password'))).toBe(200);
  });

  it('an ended session is refused with the cookie too, and on every secured route', async () => {
    const u = await newUser('users-password');
    const token = await s.login(u.login, 'users-password');
    await s.request('POST', LOGOUT_ALL, undefined, { token });
    expect((await s.request('GET', EMAIL, undefined, { cookie: `service_auth=${token}` })).status).toBe(401);
    expect((await s.request('GET', '/api/v2/sec/share/search', undefined, { token })).status).toBe(401);
  });
});

describe('several servers sharing one database', () => {
  it('a session ended on one server is refused by the other at its next request', async () => {
    const a = await startServer();
    const b = await startServer({ dataDir: a.dataDir });
    try {
      const token = await a.login(ADMIN.login, ADMIN.password);
      expect((await b.request('GET', EMAIL, undefined, { token })).status).toBe(200);
      expect((await a.request('POST', LOGOUT_ALL, undefined, { token })).status).toBe(200);
      expect((await b.request('GET', EMAIL, undefined, { token })).status).toBe(401);
      expect((await b.request('POST', SESSION, undefined, { token })).status).toBe(401);
      const other = await a.login(ADMIN.login, ADMIN.password);
      const kept = await a.login(ADMIN.login, ADMIN.password);
      expect((await a.request('POST', '/api/v2/sec/auth/logout', undefined, { token: other })).status).toBe(200);
      expect((await b.request('GET', EMAIL, undefined, { token: other })).status).toBe(401);
      expect((await b.request('GET', EMAIL, undefined, { token: kept })).status).toBe(200);
    } finally {
      await b.stop();
      await a.stop();
    }
  });
});

describe('session-max', () => {
  it('renewal never extends a session beyond session-max after its login', async () => {
    const clock = manualClock(Date.UTC(2032, 0, 1));
    const s = await startServer({ clock, config: { backend: { auth: { 'session-valid': '8 minutes', 'session-max': '30 minutes' } } } });
    try {
      let token = await s.login(ADMIN.login, ADMIN.password);
      const loginAt = clock.now();
      for (let t = 5; t < 30; t += 5) {
        clock.advance(5 * 60_000);
        const renewed = await s.request('POST', SESSION, undefined, { token });
        expect(renewed.status, `after ${t} minutes`).toBe(200);
        token = String(renewed.body['token']);
        // the last tokens are shorter: they end with the session
        expect(Number(renewed.body['validMs'])).toBe(Math.min(8 * 60_000, loginAt + 30 * 60_000 - clock.now()));
      }
      clock.advance(5 * 60_000);
      expect((await s.request('POST', SESSION, undefined, { token })).status).toBe(401);
      expect((await s.request('GET', EMAIL, undefined, { token })).status).toBe(401);
      // a new login starts a new session
      expect((await s.request('GET', EMAIL, undefined, { token: await s.login(ADMIN.login, ADMIN.password) })).status).toBe(200);
    } finally {
      await s.stop();
    }
  });
});
