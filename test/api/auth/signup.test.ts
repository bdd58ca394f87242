import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../server/common/clock.js';
import { ADMIN, startServer, type TestServer } from '../../support/server.js';

const REGISTER = '/api/v2/open/signup/register';
const INVITE_PATHS = ['/api/v2/admin/signup/newinvite', '/api/v2/open/signup/newinvite', '/api/v1/open/signup/newinvite'];

describe('sign-up mode open', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(() => s.stop());

  it('registers an internal, active, non-admin account that can log in', async () => {
    const res = await s.request('POST', REGISTER, { login: 'Dave', password: 'dave-password' });
    expect(res.body).toEqual({ success: true, message: 'Signup successful', code: 'signup.done' });
    const login = await s.request('POST', '/api/v2/open/auth/login', { account: 'dave', password: 'dave-password' });
    expect(login.body).toMatchObject({ success: true, user: 'dave', admin: false });
  });

  it('refuses a taken login (case-insensitive) as a business outcome', async () => {
    const res = await s.request('POST', REGISTER, { login: 'DAVE', password: 'other-password' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: false, message: 'An account with this name already exists.', code: 'account.exists' });
  });

  it('answers 400 for an invalid login or a missing password', async () => {
    expect((await s.request('POST', REGISTER, { login: 'bad name', password: 'x' })).status).toBe(400);
    expect((await s.request('POST', REGISTER, { login: 'ok', password: '' })).status).toBe(400);
    expect((await s.request('POST', REGISTER, { login: 'ok' })).status).toBe(400);
  });

  it('creates no invitation outside invite mode', async () => {
    const token = await s.login(ADMIN.login, ADMIN.password);
    const res = await s.request('POST', INVITE_PATHS[0]!, { password: 'generate-invite' }, { token });
    expect(res.body).toEqual({ success: false, message: 'Signing up is not enabled for invitations.', code: 'signup.invites-disabled', key: null });
  });
});

describe('sign-up mode closed', () => {
  it('refuses every registration', async () => {
    const s = await startServer({ config: { backend: { signup: { mode: 'closed' } } } });
    try {
      const res = await s.request('POST', REGISTER, { login: 'erin', password: 'pw' });
      expect(res.body).toEqual({ success: false, message: 'Sorry, registration is closed.', code: 'signup.closed' });
      expect((await s.request('POST', '/api/v2/open/auth/login', { account: 'erin', password: 'pw' })).body['success']).toBe(false);
    } finally {
      await s.stop();
    }
  });
});

describe('sign-up mode invite', () => {
  const clock = manualClock();
  let s: TestServer;
  let adminToken: string;
  let userToken: string;
  beforeAll(async () => {
    s = await startServer({
      clock,
      config: { backend: { signup: { mode: 'invite', 'invite-password': 'let-me-invite', 'invite-time': '1 day' } } },
    });
    adminToken = await s.login(ADMIN.login, ADMIN.password);
    await s.request('POST', '/api/v2/admin/account', { login: 'frank', state: 'Active', admin: false, password: 'frank-password' }, { token: adminToken });
    userToken = await s.login('frank', 'frank-password');
  });
  afterAll(() => s.stop());

  it('creates invitation keys at all three paths for an admin with the invite password', async () => {
    for (const path of INVITE_PATHS) {
      const res = await s.request<{ success: boolean; key: string }>('POST', path, { password: 'let-me-invite' }, { token: adminToken });
      expect(res.status, path).toBe(200);
      expect(res.body.success).toBe(true);
      expect(res.body.key).toMatch(/^[A-Za-z0-9_-]{32}$/);
    }
  });

  it('refuses a wrong invite password, non-admins (403) and missing tokens (401) at every path', async () => {
    for (const path of INVITE_PATHS) {
      const wrong = await s.request('POST', path, { password: 'nope' }, { token: adminToken });
      expect(wrong.body).toEqual({ success: false, message: 'Password is invalid.', code: 'signup.invite-password-wrong', key: null });
      expect((await s.request('POST', path, { password: 'let-me-invite' }, { token: userToken })).status).toBe(403);
      expect((await s.request('POST', path, { password: 'let-me-invite' })).status).toBe(401);
      expect((await s.request('POST', path, { nope: 1 }, { token: adminToken })).status).toBe(400);
    }
  });

  it('registers with a valid key once; a used, unknown or missing key is refused', async () => {
    const key = (await s.request<{ key: string }>('POST', INVITE_PATHS[0]!, { password: 'let-me-invite' }, { token: adminToken })).body.key;
    expect((await s.request('POST', REGISTER, { login: 'gina', password: 'long-enough' })).body).toEqual({ success: false, message: 'Invalid invitation key.', code: 'signup.invite-invalid' });
    expect((await s.request('POST', REGISTER, { login: 'gina', password: 'long-enough', invite: 'unknown-key' })).body['success']).toBe(false);
    // a taken login does not use up the key
    const taken = await s.request('POST', REGISTER, { login: 'frank', password: 'long-enough', invite: key });
    expect(taken.body).toEqual({ success: false, message: 'An account with this name already exists.', code: 'account.exists' });
    expect((await s.request('POST', REGISTER, { login: 'gina', password: 'long-enough', invite: key })).body).toEqual({ success: true, message: 'Signup successful', code: 'signup.done' });
    expect((await s.request('POST', REGISTER, { login: 'hank', password: 'long-enough', invite: key })).body['message']).toBe('Invalid invitation key.');
  });

  it('refuses a key older than invite-time', async () => {
    const key = (await s.request<{ key: string }>('POST', INVITE_PATHS[0]!, { password: 'let-me-invite' }, { token: adminToken })).body.key;
    clock.advance(86_400_000 + 1000);
    const res = await s.request('POST', REGISTER, { login: 'ivan', password: 'long-enough', invite: key });
    expect(res.body['message']).toBe('Invalid invitation key.');
  });
});

// Regression: sign-up had no rate limit: 60 accounts in 2.4 s, each one
// multiplying every per-account limit.
describe('sign-ups per address and hour', () => {
  const clock = manualClock(Date.UTC(2031, 0, 1));
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ clock, config: { 'trusted-proxies': ['127.0.0.1'], 'rate-limit': { signups: 3 }, backend: { signup: { mode: 'open' } } } });
  });
  afterAll(() => s.stop());

  const register = (login: string, address: string) =>
    s.request('POST', REGISTER, { login, password: 'a-long-password' }, { headers: { 'X-Forwarded-For': address } });

  it('counts every attempt of an address (an IPv6 host by its /64), refuses beyond the limit with 429, and lets it in again after the hour', async () => {
    expect((await register('one', '203.0.113.5')).body['success']).toBe(true);
    // a refused attempt counts too: it tells which logins exist
    expect((await register('one', '203.0.113.5')).body['success']).toBe(false);
    expect((await register('two', '203.0.113.5')).body['success']).toBe(true);
    const over = await register('three', '203.0.113.5');
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ success: false, code: 'signup.too-many' });
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(3000);
    expect((await s.request('POST', '/api/v2/open/auth/login', { account: 'three', password: 'a-long-password' })).body['success']).toBe(false);
    // another address has its own budget; a parallel burst gets no more than the limit
    const burst = await Promise.all(Array.from({ length: 20 }, (_, i) => register(`v6-${i}`, `2001:db8:5:6::${i + 1}`)));
    expect(burst.filter((r) => r.status === 200).length).toBeLessThanOrEqual(3);
    expect(burst.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(17);
    clock.advance(3_600_001);
    expect((await register('three', '203.0.113.5')).body['success']).toBe(true);
  });
});
