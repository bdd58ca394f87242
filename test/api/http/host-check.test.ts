/**
 * Regression (DNS rebinding): the server never checked `Host`, so a web site
 * the user opened could rebind its own name to 127.0.0.1 or the LAN address
 * and read Pier's answers as its own origin (sign up, drive the player, list
 * the LAN addresses, guess logins as 127.0.0.1). A request is answered only
 * when its `Host` names this server: loopback names and addresses, the
 * machine's addresses, its host name alone or with the domain a LAN router
 * adds, `base-url`'s host and `allowed-hosts`; any other gets 421 with a short
 * page naming `allowed-hosts`, and nothing is read or written.
 *
 * Also: opened as `http://nas.fritz.box:<port>` without `base-url`, the server
 * answered `http://localhost:9090` as its base URL and tus `Location` (the
 * wrong host and the wrong port), so every upload retried for ever. An
 * accepted name is the one links and `Location` use, with the port the server
 * listens on.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { hostname, networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startServer, type TestServer } from '../../support/server.js';
import { createAlias, createUser, guest, guestShare, type User } from '../aliases/support.js';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** A request with exactly the given headers (fetch would set `Host` itself). */
const raw = (s: TestServer, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Raw> =>
  new Promise((resolve, reject) => {
    const u = new URL(s.url);
    const req = httpRequest({ host: u.hostname, port: u.port, path, method, headers, setHost: !('Host' in headers), agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });

/** The status line of a WebSocket upgrade of `path` sent with `host`. */
const upgradeStatus = (s: TestServer, path: string, host: string, extra = ''): Promise<string> =>
  new Promise((resolve, reject) => {
    const u = new URL(s.url);
    const c = connect({ host: u.hostname, port: Number(u.port) });
    let text = '';
    c.setEncoding('utf8');
    c.on('data', (d: string) => {
      text += d;
      if (text.includes('\r\n')) {
        c.destroy();
        resolve(text.split('\r\n')[0]!);
      }
    });
    c.on('error', reject);
    c.write(
      `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n` +
        `Sec-WebSocket-Key: ${Buffer.alloc(16, 1).toString('base64')}\r\n${extra}\r\n`,
    );
  });

const firstLabel = hostname().toLowerCase().split('.')[0]!;

describe('requests whose Host names another server', () => {
  let s: TestServer;
  let custom: string;
  let alice: User;
  let admin: string;
  let aliasId: string;
  let port: string;

  beforeAll(async () => {
    custom = mkdtempSync(join(tmpdir(), 'pier-custom-'));
    writeFileSync(join(custom, 'hello.txt'), 'hello');
    s = await startServer({
      config: {
        'allowed-hosts': ['files.example.test'],
        'custom-content': { enabled: true, directory: custom },
        backend: { signup: { mode: 'open' } },
        player: { enabled: true, access: 'open', connections: { default: { host: '127.0.0.1', port: 1, timeout: '1 second' } } },
      },
    });
    port = new URL(s.url).port;
    alice = await createUser(s, 'alice');
    admin = await s.login(ADMIN.login, ADMIN.password);
    aliasId = await createAlias(s, alice, { name: 'Inbox' });
  });
  afterAll(async () => {
    await s.stop();
    rmSync(custom, { recursive: true, force: true });
  });

  const routes = (): [string, string, Record<string, string>, string?][] => [
    ['GET', '/api/v2/open/info/appconfig', {}],
    ['GET', '/api/v2/sec/share/search', { 'Service-Auth': alice.token }],
    ['POST', '/api/v2/alias/upload/new', { ...guest(aliasId), 'Content-Type': 'application/json' }, JSON.stringify({ validity: 0, maxViews: 10 })],
    ['GET', '/api/v2/admin/account', { 'Service-Auth': admin }],
    ['POST', '/api/v1/player', { 'Content-Type': 'application/json' }, JSON.stringify({ command: 'status' })],
    ['GET', '/api/v1/info', {}],
    ['GET', '/app', {}],
    ['GET', '/app/login', {}],
    ['GET', '/api/doc', {}],
    ['GET', '/api/doc/openapi.yml', {}],
    ['GET', '/custom/hello.txt', {}],
    ['GET', '/', {}],
  ];

  it('answers 421 naming allowed-hosts on every route group', async () => {
    for (const host of ['evil.example', `evil.example:${port}`, `${firstLabel}x.fritz.box:${port}`, `x${firstLabel}:${port}`, `localhost.evil.example:${port}`]) {
      for (const [method, path, headers, body] of routes()) {
        const res = await raw(s, method, path, { ...headers, Host: host }, body);
        expect(res.status, `${method} ${path} with ${host}`).toBe(421);
        expect(res.text, `${method} ${path}`).toContain('allowed-hosts');
        expect(res.text).not.toMatch(/stack|at .*\.ts:/);
        expect(res.headers['set-cookie']).toBeUndefined();
      }
    }
    // the same routes with the server's own name answer as usual
    for (const [method, path, headers, body] of routes()) {
      const res = await raw(s, method, path, { ...headers, Host: `127.0.0.1:${port}` }, body);
      expect(res.status, `${method} ${path}`).not.toBe(421);
    }
  });

  it('answers JSON on the API and a page elsewhere', async () => {
    const api = await raw(s, 'GET', '/api/v2/open/info/appconfig', { Host: 'evil.example' });
    expect(api.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(api.text)).toMatchObject({ success: false });
    const page = await raw(s, 'GET', '/app', { Host: 'evil.example' });
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).not.toContain('evil.example<');
  });

  it('touches nothing: no sign-in, no sign-up, no cookie', async () => {
    const login = await raw(s, 'POST', '/api/v2/open/auth/login', { Host: 'evil.example', 'Content-Type': 'application/json' }, JSON.stringify({ account: 'alice', password: 'alice-password' }));
    expect(login.status).toBe(421);
    expect(login.headers['set-cookie']).toBeUndefined();
    const signup = await raw(
      s,
      'POST',
      '/api/v2/open/signup/register',
      { Host: 'evil.example', 'Content-Type': 'application/json' },
      JSON.stringify({ login: 'mallory', password: 'mallory-password', invite: null }),
    );
    expect(signup.status).toBe(421);
    expect((await s.request('POST', '/api/v2/open/auth/login', { account: 'mallory', password: 'mallory-password' })).body).toMatchObject({ success: false });
  });

  it('refuses a WebSocket upgrade with 421', async () => {
    expect(await upgradeStatus(s, '/api/v1/player', 'evil.example')).toMatch(/^HTTP\/1\.1 421/);
    expect(await upgradeStatus(s, '/api/v1/player', `rebind.evil:${port}`)).toMatch(/^HTTP\/1\.1 421/);
    // past the check: the daemon is unreachable
    expect(await upgradeStatus(s, '/api/v1/player', `localhost:${port}`)).toMatch(/^HTTP\/1\.1 502/);
  });

  it('accepts loopback names, the machine\'s addresses, its host name with a router\'s domain, and allowed-hosts', async () => {
    const own = [
      `localhost:${port}`,
      `127.0.0.1:${port}`,
      `127.0.0.2:${port}`,
      `[::1]:${port}`,
      `0.0.0.0:${port}`,
      `${firstLabel}:${port}`,
      `${firstLabel}.local:${port}`,
      `${firstLabel}.lan:${port}`,
      `${firstLabel}.fritz.box:${port}`,
      `${firstLabel.toUpperCase()}.Fritz.Box:${port}`,
      'files.example.test',
      `FILES.example.test:${port}`,
      ...Object.values(networkInterfaces())
        .flatMap((l) => l ?? [])
        .filter((a) => !a.address.includes('%') && !a.scopeid)
        .map((a) => (a.family === 'IPv6' ? `[${a.address}]:${port}` : `${a.address}:${port}`)),
    ];
    for (const host of own) {
      const res = await raw(s, 'GET', '/api/v2/open/info/appconfig', { Host: host });
      expect(res.status, host).toBe(200);
    }
    expect(await upgradeStatus(s, '/api/v1/player', `${firstLabel}.fritz.box:${port}`)).toMatch(/^HTTP\/1\.1 502/);
  });
});

describe('links of a name a LAN router gives, without base-url', () => {
  let s: TestServer;
  let alice: User;
  let port: string;

  beforeAll(async () => {
    s = await startServer();
    port = new URL(s.url).port;
    alice = await createUser(s, 'alice');
  });
  afterAll(() => s.stop());

  it('use that name and the port the server listens on for the base URL and the tus Location', async () => {
    const name = `${firstLabel}.fritz.box`;
    const app = JSON.parse((await raw(s, 'GET', '/api/v2/open/info/appconfig', { Host: `${name}:${port}` })).text) as { baseUrl: string };
    expect(app.baseUrl).toBe(`http://${name}:${port}`);

    const aliasId = await createAlias(s, alice, { name: 'Inbox' });
    const shareId = await guestShare(s, aliasId);
    const created = await raw(s, 'POST', `/api/v2/alias/upload/${shareId}/files/tus`, {
      ...guest(aliasId),
      Host: `${name}:${port}`,
      'Tus-Resumable': '1.0.0',
      'Upload-Length': '3',
      'Upload-Metadata': `filename ${Buffer.from('a.txt').toString('base64')}`,
    });
    expect(created.status).toBe(201);
    expect(String(created.headers['location'])).toMatch(new RegExp(`^http://${name.replace(/\./g, '\\.')}:${port}/api/v2/alias/upload/${shareId}/files/tus/`));
  });

  it('fall back to the port the server listens on', async () => {
    // a Host with another port than the one the server listens on names no link to this server
    const other = JSON.parse((await raw(s, 'GET', '/api/v2/open/info/appconfig', { Host: `${firstLabel}.lan:1` })).text) as { baseUrl: string };
    expect(other.baseUrl).toBe(`http://${firstLabel}.lan:${port}`);
  });
});
