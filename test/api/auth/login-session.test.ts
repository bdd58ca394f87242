import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../server/common/clock.js';
import { ADMIN, startServer, type TestServer } from '../../support/server.js';

const LOGIN = '/api/v2/open/auth/login';
const SESSION = '/api/v2/sec/auth/session';

describe('login, session renewal, logout', () => {
  const clock = manualClock(Date.UTC(2026, 10, 21, 12, 0, 0));
  let s: TestServer;
  let adminToken: string;

  beforeAll(async () => {
    s = await startServer({ clock, config: { 'rate-limit': { enabled: false } } });
    adminToken = await s.login(ADMIN.login, ADMIN.password);
  });
  afterAll(() => s.stop());

  it('logs in with the right password, returns a token and sets an HttpOnly cookie', async () => {
    const res = await s.request('POST', LOGIN, { account: 'ADMIN', password: ADMIN.password });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, user: 'admin', admin: true, message: 'Login successful' });
    expect(res.body['validMs']).toBe(s.config.backend.auth.sessionValid);
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^service_auth=[^;]+;/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).not.toMatch(/Secure/);
  });

  it('answers a wrong password or unknown account with success:false and no token', async () => {
    for (const body of [
      { account: 'admin', password: 'wrong' },
      { account: 'nobody', password: 'x' },
      { account: 'not an ident!', password: 'x' },
      { account: 'admin', password: '' },
    ]) {
      const res = await s.request('POST', LOGIN, body);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ id: '', user: '', admin: false, success: false, message: 'Login failed.', code: 'auth.failed', token: null, validMs: 0 });
      expect(res.headers.get('set-cookie')).toBeNull();
    }
    expect(s.logs()).toContain('Authentication attempt failure for username nobody from ip');
  });

  it('rejects malformed login requests with 400 naming the field', async () => {
    const cases: Array<[unknown, string | undefined, RegExp]> = [
      [undefined, '{"account": "admin", ', /not valid JSON/],
      [{ account: 'admin' }, undefined, /password/],
      [{ account: 5, password: 'x' }, undefined, /account/],
      [{ account: 'a'.repeat(100_000), password: 'x' }, undefined, /account/],
      [[1, 2], undefined, /body/],
    ];
    for (const [body, raw, msg] of cases) {
      const res = await s.request('POST', LOGIN, body, raw ? { raw } : {});
      expect(res.status, JSON.stringify(body ?? raw)).toBe(400);
      expect(res.body['success']).toBe(false);
      expect(String(res.body['message'])).toMatch(msg);
    }
    const noBody = await s.request('POST', LOGIN);
    expect(noBody.status).toBe(400);
  });

  it('renews a session from the header and from the cookie', async () => {
    const viaHeader = await s.request('POST', SESSION, undefined, { token: adminToken });
    expect(viaHeader.status).toBe(200);
    expect(viaHeader.body).toMatchObject({ success: true, user: 'admin', admin: true });
    expect(viaHeader.headers.get('set-cookie')).toMatch(/^service_auth=/);
    const viaCookie = await s.request('POST', SESSION, undefined, { cookie: `service_auth=${adminToken}` });
    expect(viaCookie.status).toBe(200);
    expect(viaCookie.body['user']).toBe('admin');
  });

  it('answers 401 with the generic result without a token, with garbage, and after expiry', async () => {
    for (const opts of [{}, { token: 'garbage' }, { cookie: 'service_auth=garbage' }]) {
      const res = await s.request('POST', SESSION, undefined, opts);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ success: false, message: 'Authentication failed.', code: 'auth.failed' });
    }
    const token = await s.login(ADMIN.login, ADMIN.password);
    clock.advance(s.config.backend.auth.sessionValid + 1000);
    const expired = await s.request('POST', SESSION, undefined, { token });
    expect(expired.status).toBe(401);
    adminToken = await s.login(ADMIN.login, ADMIN.password);
  });

  it('logout clears the cookie', async () => {
    const res = await s.request('POST', '/api/v2/sec/auth/logout', undefined, { token: await s.login(ADMIN.login, ADMIN.password) });
    expect(res.status).toBe(200);
    expect(res.body['success']).toBe(true);
    expect(res.headers.get('set-cookie')).toMatch(/service_auth=;.*Expires=Thu, 01 Jan 1970/);
  });

  it('refuses a disabled account at login, at renewal and on every secured route', async () => {
    const create = await s.request(
      'POST',
      '/api/v2/admin/account',
      { login: 'Carol', state: 'Active', admin: false, password: 'carol-password' },
      { token: adminToken },
    );
    expect(create.body).toEqual({ success: true, message: 'Account successfully created.', code: 'account.created' });
    const carolToken = await s.login('carol', 'carol-password');
    const carol = (await s.request<{ items: Array<{ id: string; login: string }> }>('GET', '/api/v2/admin/account?q=carol', undefined, { token: adminToken })).body.items[0]!;
    const disable = await s.request('POST', `/api/v2/admin/account/${carol.id}`, { state: 'disabled', admin: false }, { token: adminToken });
    expect(disable.body['success']).toBe(true);

    const login = await s.request('POST', LOGIN, { account: 'carol', password: 'carol-password' });
    expect(login.body['success']).toBe(false);
    expect((await s.request('POST', SESSION, undefined, { token: carolToken })).status).toBe(401);
    expect((await s.request('GET', '/api/v2/sec/settings/email', undefined, { token: carolToken })).status).toBe(401);

    // disabling ended carol's sessions: re-enabling lets her log in again, but not revive the old token
    await s.request('POST', `/api/v2/admin/account/${carol.id}`, { state: 'Active', admin: false }, { token: adminToken });
    expect((await s.request('POST', SESSION, undefined, { token: carolToken })).status).toBe(401);
    expect((await s.request('POST', SESSION, undefined, { token: await s.login('carol', 'carol-password') })).status).toBe(200);
  });
});

describe('tokens across servers', () => {
  it('two servers with one secret accept each other’s tokens; another secret is refused', async () => {
    const secret = `hex:${'ab'.repeat(32)}`;
    const a = await startServer({ config: { backend: { auth: { 'server-secret': secret } } } });
    const b = await startServer({ dataDir: a.dataDir, config: { backend: { auth: { 'server-secret': secret } } } });
    const c = await startServer({ dataDir: a.dataDir, config: { backend: { auth: { 'server-secret': `hex:${'cd'.repeat(32)}` } } } });
    try {
      const token = await a.login(ADMIN.login, ADMIN.password);
      const onB = await b.request('POST', SESSION, undefined, { token });
      expect(onB.status).toBe(200);
      expect(onB.body['user']).toBe('admin');
      const back = await a.request('GET', '/api/v2/sec/settings/email', undefined, { token: String(onB.body['token']) });
      expect(back.status).toBe(200);
      const onC = await c.request('POST', SESSION, undefined, { token });
      expect(onC.status).toBe(401);
    } finally {
      await c.stop();
      await b.stop();
      await a.stop();
    }
  });

  it('generates a secret once per data directory and keeps it across restarts', async () => {
    const a = await startServer();
    const token = await a.login(ADMIN.login, ADMIN.password);
    const again = await startServer({ dataDir: a.dataDir });
    const other = await startServer();
    try {
      expect((await again.request('POST', SESSION, undefined, { token })).status).toBe(200);
      expect(Buffer.from(other.config.backend.auth.serverSecret).equals(Buffer.from(a.config.backend.auth.serverSecret))).toBe(false);
      expect(a.config.backend.auth.serverSecret.length).toBe(32);
    } finally {
      await other.stop();
      await again.stop();
      await a.stop();
    }
  });
});

describe('rate limiting of failed logins', () => {
  it('answers 429 with Retry-After after too many failures, even for the right password, until the window passes', async () => {
    const clock = manualClock();
    const s = await startServer({ clock, config: { 'rate-limit': { 'login-failures': 3, window: '1 minute' } } });
    try {
      for (let i = 0; i < 3; i++) {
        const r = await s.request('POST', LOGIN, { account: 'admin', password: `wrong${i}` });
        expect(r.status).toBe(200);
      }
      const blocked = await s.request('POST', LOGIN, { account: 'admin', password: ADMIN.password });
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(Number(blocked.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      expect(blocked.body['success']).toBe(false);
      clock.advance(61_000);
      const ok = await s.request('POST', LOGIN, { account: 'admin', password: ADMIN.password });
      expect(ok.body['success']).toBe(true);
    } finally {
      await s.stop();
    }
  });
});
