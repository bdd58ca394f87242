/**
 * Who external logins say a user is.
 *
 * Regression: an OAuth user id was made an ident by dropping every other
 * character, so the provider's users `a+b` and `ab` both became `ab@<provider>`
 * and one signed in to the other's account. And proxy login believed its user
 * header from anyone, so any client that could reach the server directly
 * signed in as whoever it named.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEndpoint } from '../../support/http-endpoint.js';
import { startServer, type TestServer } from '../../support/server.js';

describe('OAuth user ids', () => {
  /** A provider whose code `c-<n>` signs in the user `users[n]`. */
  const users = ['a+b', 'ab', 'Mixed.Case_1-x@corp', 'auth0|123', 'x'.repeat(300)];
  let provider: Awaited<ReturnType<typeof startEndpoint>>;
  let s: TestServer;

  beforeAll(async () => {
    provider = await startEndpoint((req, res) => {
      if (req.method === 'POST' && req.url === '/token') {
        const code = new URLSearchParams(req.body).get('code') ?? '';
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: `at-${code}` }));
        return;
      }
      const n = /^Bearer at-c-(\d+)$/.exec(String(req.headers.authorization))?.[1];
      if (req.url === '/user' && n !== undefined) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: users[Number(n)] }));
        return;
      }
      res.writeHead(404).end();
    });
    s = await startServer({
      config: {
        backend: {
          auth: {
            oauth: {
              local: {
                enabled: true,
                name: 'Local',
                'authorize-url': `${provider.url}/authorize`,
                'token-url': `${provider.url}/token`,
                'user-url': `${provider.url}/user`,
                'user-id-key': 'id',
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

  /** Runs the code flow for `users[n]`; the login it signed in, or null. */
  const signIn = async (n: number): Promise<string | null> => {
    const start = await s.request('GET', '/api/v2/open/auth/oauth/local');
    const state = encodeURIComponent(new URL(start.headers.get('location')!).searchParams.get('state')!);
    const cookie = /^(service_oauth=[^;]+)/.exec(start.headers.get('set-cookie') ?? '')![1]!;
    const resume = await s.request('GET', `/api/v2/open/auth/oauth/local/resume?code=c-${n}&state=${state}`, undefined, { cookie });
    const auth = /(service_auth=[^;]+)/.exec(resume.headers.get('set-cookie') ?? '')?.[1];
    if (!auth) return null;
    const session = await s.request('POST', '/api/v2/sec/auth/session', undefined, { cookie: auth });
    return String(session.body['user']);
  };

  it('never maps two users of a provider to one account: ids that are not idents are refused', async () => {
    expect(await signIn(0)).toBeNull();
    expect(await signIn(1)).toBe('ab@local');
    expect(s.logs()).toContain('is not an ident');
  });

  it('keeps ids that are idents, lower-cased like every login; refuses other characters and overlong ids', async () => {
    expect(await signIn(2)).toBe('mixed.case_1-x@corp@local');
    expect(await signIn(3)).toBeNull();
    expect(await signIn(4)).toBeNull();
  });
});

describe('proxy login', () => {
  const PROXY = '/api/v2/open/auth/proxy';
  const proxyConfig = { backend: { auth: { proxy: { enabled: true, 'user-header': 'X-Remote-User' } } } };

  it('believes the user header only from a trusted proxy; anyone else gets 401', async () => {
    const s = await startServer({ config: proxyConfig });
    try {
      for (const method of ['GET', 'POST']) {
        const res = await s.request(method, PROXY, undefined, { headers: { 'X-Remote-User': 'admin' } });
        expect(res.status, method).toBe(401);
        expect(res.body).toEqual({ success: false, message: 'Authentication failed.', code: 'auth.failed' });
        expect(res.headers.get('set-cookie')).toBeNull();
      }
    } finally {
      await s.stop();
    }
  });

  it('signs in the named user when the request comes through a trusted proxy', async () => {
    const s = await startServer({ config: { ...proxyConfig, 'trusted-proxies': ['127.0.0.1'] } });
    try {
      const res = await s.request('GET', PROXY, undefined, { headers: { 'X-Remote-User': 'Paula' } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: true, user: 'paula' });
    } finally {
      await s.stop();
    }
  });
});
