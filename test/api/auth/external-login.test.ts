import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEndpoint } from '../../support/http-endpoint.js';
import { ADMIN, startServer, type TestServer } from '../../support/server.js';

const LOGIN = '/api/v2/open/auth/login';
const commandFixture = fileURLToPath(new URL('../../fixtures/auth-command.mjs', import.meta.url));

describe('login modules through the real server', () => {
  let http: Awaited<ReturnType<typeof startEndpoint>>;
  let basic: Awaited<ReturnType<typeof startEndpoint>>;
  let s: TestServer;

  beforeAll(async () => {
    http = await startEndpoint((req, res) => {
      const ok = req.url.includes('user=hugo') && req.url.includes('pass=hugo-password');
      res.writeHead(ok ? 200 : 403).end();
    });
    basic = await startEndpoint((req, res) => {
      const ok = req.headers.authorization === `Basic ${Buffer.from('irma:irma-password').toString('base64')}`;
      res.writeHead(ok ? 204 : 401).end();
    });
    s = await startServer({
      config: {
        'rate-limit': { enabled: false },
        backend: {
          auth: {
            fixed: { enabled: true, user: 'root', password: 'root-password', order: 10 },
            http: { enabled: false },
            command: { enabled: true, program: [process.execPath, commandFixture, '{{user}}', '{{pass}}'], order: 40 },
            internal: { enabled: true, order: 50 },
          },
        },
      },
    });
  });
  afterAll(async () => {
    await s.stop();
    await http.stop();
    await basic.stop();
  });

  it('fixed: logs in the configured user as an external admin; a wrong password does not fall through', async () => {
    const ok = await s.request('POST', LOGIN, { account: 'ROOT', password: 'root-password' });
    expect(ok.body).toMatchObject({ success: true, user: 'root', admin: true });
    expect((await s.request('POST', LOGIN, { account: 'root', password: 'nope' })).body['success']).toBe(false);
  });

  it('command: runs the real program; it answers for every user, so internal accounts behind it are not reached', async () => {
    const ok = await s.request('POST', LOGIN, { account: 'alice', password: 's3cret with space' });
    expect(ok.body).toMatchObject({ success: true, user: 'alice', admin: false });
    const admin = await s.request('GET', '/api/v2/admin/account?q=alice', undefined, { token: await s.login('root', 'root-password') });
    expect((admin.body['items'] as Array<{ source: string }>)[0]?.source).toBe('extern');
    // the internal admin comes after the command module, which answers "no" for it
    expect((await s.request('POST', LOGIN, { account: ADMIN.login, password: ADMIN.password })).body['success']).toBe(false);
  });

  it('http and http-basic: ask the configured endpoints; the order decides', async () => {
    const t = await startServer({
      config: {
        'rate-limit': { enabled: false },
        backend: {
          auth: {
            http: { enabled: true, method: 'GET', url: `${http.url}/check?user={{user}}&pass={{pass}}`, order: 5 },
            'http-basic': { enabled: true, url: `${basic.url}/basic`, method: 'GET', order: 6 },
          },
        },
      },
    });
    try {
      expect((await t.request('POST', LOGIN, { account: 'hugo', password: 'hugo-password' })).body).toMatchObject({ success: true, user: 'hugo' });
      // http answers first and says no, so http-basic is never asked
      expect((await t.request('POST', LOGIN, { account: 'irma', password: 'irma-password' })).body['success']).toBe(false);
      expect(basic.seen).toHaveLength(0);
    } finally {
      await t.stop();
    }
    const b = await startServer({
      config: { backend: { auth: { 'http-basic': { enabled: true, url: `${basic.url}/basic`, method: 'GET', order: 6 } } } },
    });
    try {
      expect((await b.request('POST', LOGIN, { account: 'irma', password: 'irma-password' })).body).toMatchObject({ success: true, user: 'irma' });
      expect((await b.request('POST', LOGIN, { account: 'irma', password: 'bad' })).body['success']).toBe(false);
    } finally {
      await b.stop();
    }
  });

  it('refuses a disabled external account even when its module says yes', async () => {
    const root = await s.login('root', 'root-password');
    const list = await s.request('GET', '/api/v2/admin/account?q=alice', undefined, { token: root });
    const alice = (list.body['items'] as Array<{ id: string }>)[0]!;
    await s.request('POST', `/api/v2/admin/account/${alice.id}`, { state: 'Disabled', admin: false }, { token: root });
    expect((await s.request('POST', LOGIN, { account: 'alice', password: 's3cret with space' })).body['success']).toBe(false);
  });

  it('does not hand an internal account to an external module of the same name', async () => {
    const root = await s.login('root', 'root-password');
    await s.request('POST', '/api/v2/admin/account', { login: 'bob', state: 'Active', admin: false, password: 'bob-password' }, { token: root });
    // the command fixture accepts bob/bob-password, but bob is an internal account
    expect((await s.request('POST', LOGIN, { account: 'bob', password: 'bob-password' })).body['success']).toBe(false);
    expect(s.logs()).toContain('the account belongs to another login source');
  });
});

describe('proxy login', () => {
  it('is refused while disabled', async () => {
    const s = await startServer();
    try {
      const res = await s.request('POST', '/api/v2/open/auth/proxy', undefined, { headers: { 'X-Valid-User': 'mallory' } });
      expect(res.body['success']).toBe(false);
    } finally {
      await s.stop();
    }
  });

  it('trusts the configured headers of a trusted proxy, creates the account with its e-mail, and sets the cookie', async () => {
    const s = await startServer({
      config: { 'trusted-proxies': ['127.0.0.1'], backend: { auth: { proxy: { enabled: true, 'user-header': 'X-Remote-User' } } } },
    });
    try {
      const res = await s.request('GET', '/api/v2/open/auth/proxy', undefined, {
        headers: { 'X-Remote-User': 'Paula', 'X-User-Email': 'paula@example.test' },
      });
      expect(res.body).toMatchObject({ success: true, user: 'paula', admin: false });
      expect(res.headers.get('set-cookie')).toMatch(/^service_auth=/);
      const email = await s.request('GET', '/api/v2/sec/settings/email', undefined, { token: String(res.body['token']) });
      expect(email.body).toEqual({ email: 'paula@example.test' });
      expect((await s.request('POST', '/api/v2/open/auth/proxy')).body['success']).toBe(false);
      expect((await s.request('POST', '/api/v2/open/auth/proxy', undefined, { headers: { 'X-Remote-User': 'not valid!' } })).body['success']).toBe(false);
    } finally {
      await s.stop();
    }
  });
});
