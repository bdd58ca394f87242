import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../support/server.js';

describe('own e-mail and password', () => {
  let s: TestServer;
  let token: string;
  beforeAll(async () => {
    s = await startServer({ config: { backend: { auth: { fixed: { enabled: true, user: 'root', password: 'root-password' } } } } });
    await s.request('POST', '/api/v2/open/signup/register', { login: 'judy', password: 'judy-password' });
    token = await s.login('judy', 'judy-password');
  });
  afterAll(() => s.stop());

  it('reads, changes and deletes the e-mail', async () => {
    expect((await s.request('GET', '/api/v2/sec/settings/email', undefined, { token })).body).toEqual({ email: null });
    expect((await s.request('POST', '/api/v2/sec/settings/email', { email: 'judy@example.test' }, { token })).body).toEqual({
      success: true,
      message: 'E-Mail successfully changed.',
      code: 'account.email-changed',
    });
    expect((await s.request('GET', '/api/v2/sec/settings/email', undefined, { token })).body).toEqual({ email: 'judy@example.test' });
    expect((await s.request('DELETE', '/api/v2/sec/settings/email', undefined, { token })).body['success']).toBe(true);
    expect((await s.request('GET', '/api/v2/sec/settings/email', undefined, { token })).body).toEqual({ email: null });
  });

  it('answers 400 for something that is not an e-mail address, and 401 without a token', async () => {
    const bad = await s.request('POST', '/api/v2/sec/settings/email', { email: 'not an address' }, { token });
    expect(bad.status).toBe(400);
    expect(String(bad.body['message'])).toContain('email');
    expect((await s.request('GET', '/api/v2/sec/settings/email')).status).toBe(401);
    expect((await s.request('POST', '/api/v2/sec/settings/password', { oldPassword: 'x', newPassword: 'y' })).status).toBe(401);
  });

  it('changes the password of an internal account after checking the old one', async () => {
    expect((await s.request('GET', '/api/v2/sec/settings/password', undefined, { token })).body).toEqual({ success: true, message: 'Account available', code: 'account.password-available' });
    const wrong = await s.request('POST', '/api/v2/sec/settings/password', { oldPassword: 'nope', newPassword: 'new-password' }, { token });
    expect(wrong.body).toEqual({ success: false, message: 'Password is wrong.', code: 'account.password-wrong', token: null });
    const ok = await s.request('POST', '/api/v2/sec/settings/password', { oldPassword: 'judy-password', newPassword: 'new-password' }, { token });
    expect(ok.body).toEqual({ success: true, message: 'Password successfully changed.', code: 'account.password-changed', token: expect.any(String) });
    expect((await s.request('POST', '/api/v2/open/auth/login', { account: 'judy', password: 'judy-password' })).body['success']).toBe(false);
    // the change ended every session, this one too, and handed the caller a new one
    expect((await s.request('GET', '/api/v2/sec/settings/password', undefined, { token })).status).toBe(401);
    token = String(ok.body['token']);
    expect((await s.request('GET', '/api/v2/sec/settings/password', undefined, { token })).status).toBe(200);
    expect((await s.request('POST', '/api/v2/sec/settings/password', { oldPassword: 'new-password', newPassword: '' }, { token })).status).toBe(400);
  });

  it('says an external account has no password to change', async () => {
    const root = await s.login('root', 'root-password');
    expect((await s.request('GET', '/api/v2/sec/settings/password', undefined, { token: root })).body).toEqual({
      success: false,
      message: 'Account not available',
      code: 'account.password-unavailable',
    });
    const res = await s.request('POST', '/api/v2/sec/settings/password', { oldPassword: 'root-password', newPassword: 'x' }, { token: root });
    expect(res.body).toEqual({ success: false, message: 'Not an internal account.', code: 'account.not-internal', token: null });
  });
});
