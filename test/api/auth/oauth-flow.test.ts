import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEndpoint } from '../../support/http-endpoint.js';
import { ADMIN, startServer, type TestServer } from '../../support/server.js';

/** A small OAuth 2 provider: one code, one access token, one user. */
const startProvider = () =>
  startEndpoint((req, res) => {
    if (req.method === 'POST' && req.url === '/token') {
      const form = new URLSearchParams(req.body);
      const ok = form.get('code') === 'the-code' && form.get('client_id') === 'pier' && form.get('client_secret') === 'pier-secret';
      res.writeHead(ok ? 200 : 400, { 'content-type': 'application/json' }).end(JSON.stringify(ok ? { access_token: 'at-1' } : { error: 'bad' }));
      return;
    }
    if (req.url === '/user' && req.headers.authorization === 'Bearer at-1') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ login: 'Quinn', email: 'quinn@example.test' }));
      return;
    }
    res.writeHead(404).end();
  });

describe('OAuth code flow through the real server', () => {
  let provider: Awaited<ReturnType<typeof startProvider>>;
  let s: TestServer;
  beforeAll(async () => {
    provider = await startProvider();
    s = await startServer({
      config: {
        backend: {
          auth: {
            oauth: {
              local: {
                enabled: true,
                name: 'Local',
                icon: 'fa-openid',
                scope: 'read:user',
                'authorize-url': `${provider.url}/authorize`,
                'token-url': `${provider.url}/token`,
                'user-url': `${provider.url}/user`,
                'user-id-key': 'login',
                'user-email-key': 'email',
                'client-id': 'pier',
                'client-secret': 'pier-secret',
              },
            },
          },
        },
      },
    });
  });
  afterAll(async () => {
    await s.stop();
    await provider.stop();
  });

  const start = async () => {
    const res = await s.request('GET', '/api/v2/open/auth/oauth/local');
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!);
    const flowCookie = /^(service_oauth=[^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
    expect(res.headers.get('set-cookie')).toMatch(/HttpOnly/i);
    expect(`${location.origin}${location.pathname}`).toBe(`${provider.url}/authorize`);
    expect(location.searchParams.get('client_id')).toBe('pier');
    expect(location.searchParams.get('response_type')).toBe('code');
    expect(location.searchParams.get('scope')).toBe('read:user');
    expect(location.searchParams.get('redirect_uri')).toBe(`${s.url}/api/v2/open/auth/oauth/local/resume`);
    return { state: encodeURIComponent(location.searchParams.get('state')!), cookie: flowCookie! };
  };

  it('logs in `<user>@<provider>`, creates the account with its e-mail and sets the cookie', async () => {
    const flow = await start();
    // the callback opened in another browser (without the flow cookie) is refused
    const elsewhere = await s.request('GET', `/api/v2/open/auth/oauth/local/resume?code=the-code&state=${flow.state}`);
    expect(elsewhere.headers.get('location')).toBe(`${s.url}/app/login?oauth=0`);
    const resume = await s.request('GET', `/api/v2/open/auth/oauth/local/resume?code=the-code&state=${flow.state}`, undefined, { cookie: flow.cookie });
    expect(resume.status).toBe(302);
    expect(resume.headers.get('location')).toBe(`${s.url}/app/login?oauth=1`);
    const cookie = /(service_auth=[^;]+)/.exec(resume.headers.get('set-cookie') ?? '')?.[1];
    expect(cookie).toBeTruthy();
    const session = await s.request('POST', '/api/v2/sec/auth/session', undefined, { cookie });
    expect(session.body).toMatchObject({ success: true, user: 'quinn@local', admin: false });
    const email = await s.request('GET', '/api/v2/sec/settings/email', undefined, { cookie });
    expect(email.body).toEqual({ email: 'quinn@example.test' });
    const admin = await s.login(ADMIN.login, ADMIN.password);
    const list = await s.request('GET', '/api/v2/admin/account?q=quinn', undefined, { token: admin });
    expect((list.body['items'] as Array<{ source: string }>)[0]!.source).toBe('oauth:local');
  });

  it('refuses a forged state, a wrong code and a disabled account without setting a cookie', async () => {
    const forged = await s.request('GET', '/api/v2/open/auth/oauth/local/resume?code=the-code&state=forged');
    expect(forged.headers.get('location')).toBe(`${s.url}/app/login?oauth=0`);
    expect(forged.headers.get('set-cookie') ?? '').not.toContain('service_auth=');
    const f1 = await start();
    const wrongCode = await s.request('GET', `/api/v2/open/auth/oauth/local/resume?code=other&state=${f1.state}`, undefined, { cookie: f1.cookie });
    expect(wrongCode.headers.get('location')).toBe(`${s.url}/app/login?oauth=0`);

    const admin = await s.login(ADMIN.login, ADMIN.password);
    const list = await s.request('GET', '/api/v2/admin/account?q=quinn', undefined, { token: admin });
    const quinn = (list.body['items'] as Array<{ id: string }>)[0]!;
    await s.request('POST', `/api/v2/admin/account/${quinn.id}`, { state: 'Disabled', admin: false }, { token: admin });
    const f2 = await start();
    const disabled = await s.request('GET', `/api/v2/open/auth/oauth/local/resume?code=the-code&state=${f2.state}`, undefined, { cookie: f2.cookie });
    expect(disabled.headers.get('location')).toBe(`${s.url}/app/login?oauth=0`);
    expect(disabled.headers.get('set-cookie') ?? '').not.toContain('service_auth=');
  });

  it('answers 404 for an unknown provider', async () => {
    expect((await s.request('GET', '/api/v2/open/auth/oauth/unknown')).status).toBe(404);
  });
});
