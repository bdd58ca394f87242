// Every path that sets an account password refuses one shorter than
// backend.auth.password-min-length, as a business outcome with its own code, and
// changes nothing; the client learns the rule from the appconfig.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startServer, type Json, type TestServer } from '../../support/server.js';

const REGISTER = '/api/v2/open/signup/register';
const tooShort = (min: number) => ({ success: false, message: `The password must have at least ${min} characters.`, code: 'account.password-too-short' });

describe('the minimum password length, by default 8', () => {
  let s: TestServer;
  let admin: string;
  beforeAll(async () => {
    s = await startServer();
    admin = await s.login(ADMIN.login, ADMIN.password);
  });
  afterAll(() => s.stop());

  const canLogin = async (account: string, password: string) =>
    (await s.request<Json>('POST', '/api/v2/open/auth/login', { account, password })).body['success'];

  it('is in the appconfig for the client', async () => {
    expect((await s.request('GET', '/api/v2/open/info/appconfig')).body['passwordMinLength']).toBe(8);
  });

  it('sign-up: 7 characters are refused and no account is made; 8 are enough', async () => {
    expect((await s.request('POST', REGISTER, { login: 'ada', password: '1234567' })).body).toEqual(tooShort(8));
    expect(await canLogin('ada', '1234567')).toBe(false);
    expect((await s.request('POST', REGISTER, { login: 'ada', password: '12345678' })).body).toEqual({ success: true, message: 'Signup successful', code: 'signup.done' });
    expect(await canLogin('ada', '12345678')).toBe(true);
  });

  it('counts characters, not bytes or UTF-16 units: seven emoji are seven', async () => {
    expect((await s.request('POST', REGISTER, { login: 'emo', password: '🔑🔑🔑🔑🔑🔑🔑' })).body).toEqual(tooShort(8));
    expect((await s.request('POST', REGISTER, { login: 'emo', password: '🔑🔑🔑🔑🔑🔑🔑🔑' })).body['success']).toBe(true);
  });

  it('admin: creating an account with a short password is refused and creates nothing', async () => {
    const create = await s.request('POST', '/api/v2/admin/account', { login: 'bea', state: 'Active', admin: false, password: 'short' }, { token: admin });
    expect(create.body).toEqual(tooShort(8));
    expect((await s.request<{ items: unknown[] }>('GET', '/api/v2/admin/account?q=bea', undefined, { token: admin })).body.items).toEqual([]);
  });

  it('admin: resetting to a short password is refused and changes nothing else either', async () => {
    await s.request('POST', '/api/v2/admin/account', { login: 'cy', state: 'Active', admin: false, password: 'cy-first-password' }, { token: admin });
    const cy = (await s.request<{ items: { id: string }[] }>('GET', '/api/v2/admin/account?q=cy', undefined, { token: admin })).body.items[0]!;
    const reset = await s.request('POST', `/api/v2/admin/account/${cy.id}`, { state: 'Active', admin: true, password: 'short' }, { token: admin });
    expect(reset.body).toEqual(tooShort(8));
    expect(await canLogin('cy', 'cy-first-password')).toBe(true);
    expect((await s.request<Json>('GET', `/api/v2/admin/account/${cy.id}`, undefined, { token: admin })).body['admin']).toBe(false);
    const ok = await s.request('POST', `/api/v2/admin/account/${cy.id}`, { state: 'Active', admin: false, password: 'cy-second-password' }, { token: admin });
    expect(ok.body).toEqual({ success: true, message: 'Account successfully modified.', code: 'account.modified' });
    expect(await canLogin('cy', 'cy-second-password')).toBe(true);
  });

  it('own password: a short new one is refused, the session and the old password stay', async () => {
    await s.request('POST', REGISTER, { login: 'dan', password: 'dan-first-password' });
    const token = await s.login('dan', 'dan-first-password');
    const change = await s.request('POST', '/api/v2/sec/settings/password', { oldPassword: 'dan-first-password', newPassword: 'tiny' }, { token });
    expect(change.body).toEqual({ ...tooShort(8), token: null });
    expect((await s.request('GET', '/api/v2/sec/settings/email', undefined, { token })).status).toBe(200);
    expect(await canLogin('dan', 'dan-first-password')).toBe(true);
  });
});

describe('a configured minimum', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ config: { backend: { auth: { 'password-min-length': 12 }, signup: { mode: 'invite', 'invite-password': 'let-me-invite' } } } });
  });
  afterAll(() => s.stop());

  it('applies to sign-up with an invitation, whose key stays unused after a refusal', async () => {
    expect((await s.request('GET', '/api/v2/open/info/appconfig')).body['passwordMinLength']).toBe(12);
    const admin = await s.login(ADMIN.login, ADMIN.password);
    const key = (await s.request<{ key: string }>('POST', '/api/v2/admin/signup/newinvite', { password: 'let-me-invite' }, { token: admin })).body.key;
    expect((await s.request('POST', REGISTER, { login: 'eve', password: '12345678901', invite: key })).body).toEqual(tooShort(12));
    expect((await s.request('POST', REGISTER, { login: 'eve', password: '123456789012', invite: key })).body).toEqual({
      success: true,
      message: 'Signup successful',
      code: 'signup.done',
    });
  });
});

describe('the fixed login password', () => {
  // Regression: Sharry's documented `admin`/`admin` fixed login stopped Pier at
  // start-up. The operator wrote it in their own file: the server starts, the
  // login works, and every start warns loudly until it is changed.
  it('shorter than the minimum starts, signs in and warns at every start, naming the key', async () => {
    const config = { backend: { auth: { fixed: { enabled: true, user: 'admin', password: 'admin' } } } };
    const warning = /SECURITY.*backend\.auth\.fixed\.password has 5 characters, fewer than .*backend\.auth\.password-min-length \(8\)/;
    const dataDir = mkdtempSync(join(tmpdir(), 'pier-fixed-'));
    const first = await startServer({ config, dataDir, initialAdmin: { kind: 'none' } });
    try {
      expect(await first.login('admin', 'admin')).toBeTruthy();
      expect(first.logs()).toMatch(warning);
      expect(first.logs()).toMatch(/"level":"error"/);
    } finally {
      await first.stop();
    }
    const again = await startServer({ config, dataDir, initialAdmin: { kind: 'none' } });
    try {
      expect(again.logs()).toMatch(warning);
    } finally {
      await again.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('of the minimum length starts', async () => {
    const s = await startServer({ config: { backend: { auth: { fixed: { enabled: true, user: 'root', password: 'root-pwd' } } } } });
    try {
      expect(await s.login('root', 'root-pwd')).toBeTruthy();
    } finally {
      await s.stop();
    }
  });
});
