/**
 * Regression: SameSite=Lax keeps the `service_auth` cookie from other sites,
 * but not from another port of the same host (same-site), so a page there
 * could create shares in a signed-in visitor's account through the multipart
 * routes, log them out or drive their player. Unsafe requests (POST, PUT,
 * PATCH, DELETE) and WebSocket upgrades that authenticate with the cookie
 * alone are refused with 403 when `Sec-Fetch-Site` says another origin, or,
 * without it, when `Origin` differs from the request's own origin.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ADMIN, startServer, type TestServer } from '../../support/server.js';
import { multipartForm, postForm } from '../aliases/support.js';

const DAY = 86_400_000;

describe('cross-origin requests with the session cookie', () => {
  let s: TestServer;
  let token: string;
  let cookie: string;

  beforeAll(async () => {
    // a daemon nobody listens on: the player routes get past the access check and answer 502
    s = await startServer({ config: { player: { enabled: true, access: 'user', connections: { default: { host: '127.0.0.1', port: 1, timeout: '1 second' } } } } });
    token = await s.login(ADMIN.login, ADMIN.password);
    cookie = `service_auth=${token}`;
  });
  afterAll(() => s.stop());

  const shareCount = async () =>
    (await s.request<{ items: unknown[] }>('GET', '/api/v2/sec/share/search', undefined, { token })).body.items.length;

  const upload = (headers: Record<string, string>) =>
    postForm(s, '/api/v2/sec/upload', headers, multipartForm({ validity: DAY, maxViews: 3 }, [{ name: 'a.txt', content: 'hello' }]));

  it('refuses a multipart upload from another site or another port of this host, and creates no share', async () => {
    const before = await shareCount();
    for (const headers of <Record<string, string>[]>[
      { Cookie: cookie, 'Sec-Fetch-Site': 'same-site' },
      { Cookie: cookie, 'Sec-Fetch-Site': 'cross-site' },
      { Cookie: cookie, 'Sec-Fetch-Site': 'same-site', Origin: s.url },
      { Cookie: cookie, Origin: 'http://127.0.0.1:1234' },
      { Cookie: cookie, Origin: 'null' },
    ]) {
      const res = await upload(headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.body.success).toBe(false);
    }
    expect(await shareCount()).toBe(before);
  });

  it('accepts uploads from the same origin, from clients that send no browser headers, and with the token header', async () => {
    const before = await shareCount();
    for (const headers of <Record<string, string>[]>[
      { Cookie: cookie, 'Sec-Fetch-Site': 'same-origin' },
      { Cookie: cookie, 'Sec-Fetch-Site': 'none' },
      { Cookie: cookie, Origin: s.url },
      { Cookie: cookie },
      // a custom header cannot be sent cross-origin without the server's consent (CORS), so it proves the origin
      { 'Service-Auth': token, 'Sec-Fetch-Site': 'cross-site', Origin: 'http://evil.example' },
    ]) {
      const res = await upload(headers);
      expect(res.status, `${JSON.stringify(headers)}: ${res.text}`).toBe(200);
    }
    expect(await shareCount()).toBe(before + 5);
  });

  it('refuses logout, deletes and admin changes from another origin, and lets reads through', async () => {
    const id = (await s.request<{ id: string }>('POST', '/api/v2/sec/upload/new', { validity: DAY, maxViews: 3 }, { token })).body.id;
    const cross = { Cookie: cookie, 'Sec-Fetch-Site': 'same-site' };
    const logout = await s.request('POST', '/api/v2/sec/auth/logout', undefined, { headers: cross, unchecked: true });
    expect(logout.status).toBe(403);
    expect(logout.headers.get('set-cookie')).toBeNull();
    expect((await s.request('DELETE', `/api/v2/sec/share/${id}`, undefined, { headers: cross, unchecked: true })).status).toBe(403);
    const account = { login: 'mallory', password: 'mallory-password', state: 'Active', admin: true, email: null };
    expect((await s.request('POST', '/api/v2/admin/account', account, { headers: cross, unchecked: true })).status).toBe(403);
    // the cookie authenticates outside /sec and /admin too
    expect((await s.request('POST', '/api/v2/open/signup/newinvite', { password: 'x' }, { headers: cross, unchecked: true })).status).toBe(403);
    expect((await s.request('GET', `/api/v2/sec/share/${id}`, undefined, { headers: cross })).status).toBe(200);
    // the same requests from the app's own pages
    const same = { Cookie: cookie, 'Sec-Fetch-Site': 'same-origin' };
    expect((await s.request('DELETE', `/api/v2/sec/share/${id}`, undefined, { headers: same })).status).toBe(200);
    // a session of its own: logout ends the session it is sent with
    const other = `service_auth=${await s.login(ADMIN.login, ADMIN.password)}`;
    expect((await s.request('POST', '/api/v2/sec/auth/logout', undefined, { headers: { ...same, Cookie: other } })).status).toBe(200);
  });

  it('refuses a JSON body that a form of another origin posts as text/plain or urlencoded, and reads it from the own origin', async () => {
    const before = await shareCount();
    const raw = JSON.stringify({ validity: DAY, maxViews: 3 });
    for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
      const cross = await s.request('POST', '/api/v2/sec/upload/new', undefined, {
        raw,
        headers: { Cookie: cookie, 'Content-Type': type, Origin: 'http://evil.example', 'Sec-Fetch-Site': 'cross-site' },
        unchecked: true,
      });
      expect(cross.status, type).toBe(403);
    }
    expect(await shareCount()).toBe(before);
    const same = await s.request('POST', '/api/v2/sec/upload/new', undefined, {
      raw,
      headers: { Cookie: cookie, 'Content-Type': 'text/plain', 'Sec-Fetch-Site': 'same-origin' },
    });
    expect(same.body).toMatchObject({ success: true });
    expect(await shareCount()).toBe(before + 1);
  });

  it('refuses player commands from another origin, with and without unknown fields', async () => {
    for (const body of [{ command: 'status' }, { command: 'status', extra: 1 }]) {
      const cross = await s.request('POST', '/api/v1/player', body, { headers: { Cookie: cookie, Origin: 'http://127.0.0.1:1234' }, unchecked: true });
      expect(cross.status, JSON.stringify(body)).toBe(403);
    }
    // past the check: the daemon is unreachable
    const same = await s.request('POST', '/api/v1/player', { command: 'status' }, { headers: { Cookie: cookie, Origin: s.url }, unchecked: true });
    expect(same.status).toBe(502);
  });

  const upgradeStatus = (headers: Record<string, string>): Promise<number> =>
    new Promise((resolve, reject) => {
      const ws = new WebSocket(`${s.url.replace('http', 'ws')}/api/v1/player`, { headers });
      ws.once('open', () => {
        ws.close();
        resolve(101);
      });
      ws.once('unexpected-response', (_req, res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      ws.once('error', reject);
    });

  it('refuses a player WebSocket opened by a page of another origin with the cookie', async () => {
    expect(await upgradeStatus({ Cookie: cookie, Origin: 'http://127.0.0.1:1234' })).toBe(403);
    expect(await upgradeStatus({ Cookie: cookie, Origin: 'http://evil.example', 'Sec-Fetch-Site': 'cross-site' })).toBe(403);
    // forwarding headers of a peer that is no trusted proxy do not make another origin this one
    expect(await upgradeStatus({ Cookie: cookie, Origin: 'http://evil.example', 'X-Forwarded-Host': 'evil.example' })).toBe(403);
    // past the check: the daemon is unreachable
    expect(await upgradeStatus({ Cookie: cookie, Origin: s.url })).toBe(502);
    expect(await upgradeStatus({ 'Service-Auth': token, Origin: 'http://evil.example' })).toBe(502);
  });

  it('compares Origin with the forwarded host only when a trusted proxy sent it', async () => {
    const proxied = await startServer({ config: { 'trusted-proxies': ['127.0.0.1'], 'allowed-hosts': ['files.example.test'] } });
    try {
      const t = await proxied.login(ADMIN.login, ADMIN.password);
      const post = (headers: Record<string, string>) =>
        new Promise<number>((resolve, reject) => {
          const u = new URL(proxied.url);
          const req = httpRequest(
            { host: u.hostname, port: u.port, path: '/api/v2/sec/upload/new', method: 'POST', headers: { ...headers, Cookie: `service_auth=${t}`, 'Content-Type': 'application/json' } },
            (res) => {
              res.resume();
              resolve(res.statusCode ?? 0);
            },
          );
          req.on('error', reject);
          req.end(JSON.stringify({ validity: DAY, maxViews: 1 }));
        });
      expect(await post({ Origin: 'https://files.example.test', 'X-Forwarded-Host': 'files.example.test', 'X-Forwarded-Proto': 'https' })).toBe(200);
      expect(await post({ Origin: 'http://files.example.test', 'X-Forwarded-Host': 'files.example.test', 'X-Forwarded-Proto': 'https' })).toBe(403);
      expect(await post({ Origin: 'https://evil.example', 'X-Forwarded-Host': 'files.example.test', 'X-Forwarded-Proto': 'https' })).toBe(403);
    } finally {
      await proxied.stop();
    }
  });
});

/**
 * Regression: JSON bodies are read whatever their content type, so a
 * `text/plain` form on any site could sign a signed-out visitor in as the
 * attacker (login CSRF), or create accounts from the visitor's address. The
 * open routes that sign in or sign up refuse unsafe requests that
 * `Sec-Fetch-Site` or `Origin` show come from another origin, with or without
 * a cookie; clients that send neither (curl, Sharry's clients) keep working.
 */
describe('cross-origin requests to the open sign-in and sign-up routes', () => {
  let s: TestServer;

  beforeAll(async () => {
    s = await startServer({
      config: { 'trusted-proxies': ['127.0.0.1'], backend: { signup: { mode: 'open' }, auth: { proxy: { enabled: true } } } },
    });
  });
  afterAll(() => s.stop());

  const login = JSON.stringify({ account: ADMIN.login, password: ADMIN.password });
  const foreign: Record<string, string>[] = [
    { 'Content-Type': 'text/plain', Origin: 'http://evil.example', 'Sec-Fetch-Site': 'cross-site' },
    { 'Content-Type': 'text/plain', 'Sec-Fetch-Site': 'same-site' },
    { 'Content-Type': 'application/x-www-form-urlencoded', Origin: 'http://evil.example' },
  ];

  it('refuses a login posted by a form of another origin, and sets no cookie', async () => {
    for (const headers of foreign) {
      const res = await s.request('POST', '/api/v2/open/auth/login', undefined, { raw: login, headers, unchecked: true });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.body).toMatchObject({ success: false });
      expect(res.headers.get('set-cookie')).toBeNull();
    }
  });

  it('refuses a sign-up and a proxy login from another origin', async () => {
    for (const headers of foreign) {
      const account = `mallory${Math.random().toString(36).slice(2, 8)}`;
      const signup = await s.request('POST', '/api/v2/open/signup/register', undefined, {
        raw: JSON.stringify({ login: account, password: 'mallory-password', invite: null }),
        headers,
        unchecked: true,
      });
      expect(signup.status, JSON.stringify(headers)).toBe(403);
      expect((await s.request('POST', '/api/v2/open/auth/login', { account, password: 'mallory-password' })).body).toMatchObject({ success: false });
      const proxy = await s.request('POST', '/api/v2/open/auth/proxy', undefined, { headers: { ...headers, 'X-Valid-User': 'mallory' }, unchecked: true });
      expect(proxy.status, JSON.stringify(headers)).toBe(403);
      expect(proxy.headers.get('set-cookie')).toBeNull();
    }
  });

  it('signs in and signs up from the own origin and from clients that send no browser headers', async () => {
    for (const headers of <Record<string, string>[]>[{ 'Sec-Fetch-Site': 'same-origin' }, { 'Sec-Fetch-Site': 'none' }, { Origin: s.url }, {}]) {
      const res = await s.request('POST', '/api/v2/open/auth/login', undefined, { raw: login, headers: { 'Content-Type': 'text/plain', ...headers } });
      expect(res.status, JSON.stringify(headers)).toBe(200);
      expect(res.body).toMatchObject({ success: true });
      const account = `carol${Math.random().toString(36).slice(2, 8)}`;
      const signup = await s.request('POST', '/api/v2/open/signup/register', { login: account, password: 'carol-password', invite: null }, { headers });
      expect(signup.body, JSON.stringify(headers)).toMatchObject({ success: true });
      const proxy = await s.request('POST', '/api/v2/open/auth/proxy', undefined, { headers: { ...headers, 'X-Valid-User': 'carol' } });
      expect(proxy.status, JSON.stringify(headers)).toBe(200);
    }
  });
});

/**
 * Regression: with `player.access = open` the gateway needs no cookie, so the
 * cookie-based check let any web site drive the player through a `text/plain`
 * form post or a WebSocket. Every unsafe gateway request and every upgrade
 * from another origin is refused, whatever the access mode; a `Service-Auth`
 * header still proves the origin.
 */
describe('cross-origin requests to the player with open access', () => {
  let s: TestServer;

  beforeAll(async () => {
    s = await startServer({ config: { player: { enabled: true, access: 'open', connections: { default: { host: '127.0.0.1', port: 1, timeout: '1 second' } } } } });
  });
  afterAll(() => s.stop());

  const command = (headers: Record<string, string>) =>
    s.request('POST', '/api/v1/player', undefined, { raw: JSON.stringify({ command: 'play' }), headers: { 'Content-Type': 'text/plain', ...headers }, unchecked: true });

  const upgradeStatus = (headers: Record<string, string>): Promise<number> =>
    new Promise((resolve, reject) => {
      const ws = new WebSocket(`${s.url.replace('http', 'ws')}/api/v1/player`, { headers });
      ws.once('open', () => {
        ws.close();
        resolve(101);
      });
      ws.once('unexpected-response', (_req, res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      ws.once('error', reject);
    });

  it('refuses commands and special requests posted by a page of another origin', async () => {
    for (const headers of <Record<string, string>[]>[{ Origin: 'http://evil.example', 'Sec-Fetch-Site': 'cross-site' }, { Origin: 'http://127.0.0.1:1234' }, { 'Sec-Fetch-Site': 'same-site' }]) {
      expect((await command(headers)).status, JSON.stringify(headers)).toBe(403);
      const special = await s.request('POST', '/api/v1/playerspecial/search', undefined, { raw: JSON.stringify({ artist: 'x' }), headers, unchecked: true });
      expect(special.status, JSON.stringify(headers)).toBe(403);
    }
    // past the check: the daemon is unreachable
    expect((await command({ Origin: s.url })).status).toBe(502);
    expect((await command({})).status).toBe(502);
    expect((await command({ 'Sec-Fetch-Site': 'same-origin' })).status).toBe(502);
  });

  it('refuses a WebSocket opened by a page of another origin', async () => {
    expect(await upgradeStatus({ Origin: 'http://evil.example' })).toBe(403);
    expect(await upgradeStatus({ Origin: 'http://evil.example', 'Sec-Fetch-Site': 'cross-site' })).toBe(403);
    expect(await upgradeStatus({ Origin: s.url })).toBe(502);
    expect(await upgradeStatus({})).toBe(502);
  });
});
