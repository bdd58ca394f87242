/**
 * Regression: while `base-url` is local (the default, and the desktop's), the
 * links the server builds (appconfig's `baseUrl`, mail templates, the mail a
 * guest triggers, tus `Location`) were taken from any client's `Host` or
 * `X-Forwarded-Host`, so a guest could make Pier mail its owner a link to
 * `evil.example`. Forwarding headers count only from `trusted-proxies`; a
 * `Host` that names none of this server's own names gets 421 (host-check.test.ts),
 * and an own name is used with the port the server listens on.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../support/server.js';
import { mailConfig, startSmtp, type SmtpCapture } from '../../support/smtp.js';
import { createAlias, createUser, guest, guestShare, guestTusUpload, bytes, type User } from '../aliases/support.js';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** A request with exactly the given headers (fetch would set `Host` itself). */
const raw = (s: TestServer, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Raw> =>
  new Promise((resolve, reject) => {
    const u = new URL(s.url);
    const req = httpRequest({ host: u.hostname, port: u.port, path, method, headers, setHost: !('Host' in headers) }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });

const appBase = async (s: TestServer, headers: Record<string, string>): Promise<string> =>
  (JSON.parse((await raw(s, 'GET', '/api/v2/open/info/appconfig', headers)).text) as { baseUrl: string }).baseUrl;

const CONFIGURED = 'http://localhost:9090';

describe('links while base-url is local', () => {
  let smtp: SmtpCapture;
  let s: TestServer;
  let alice: User;
  let port: string;

  beforeAll(async () => {
    smtp = await startSmtp();
    s = await startServer({ config: { 'base-url': CONFIGURED, backend: { mail: mailConfig(smtp.port) } } });
    alice = await createUser(s, 'alice', 'alice@example.test');
    port = new URL(s.url).port;
  });
  afterAll(async () => {
    await s.stop();
    await smtp.stop();
  });

  it('refuse a Host naming another host, and ignore X-Forwarded-Host from a peer that is no trusted proxy', async () => {
    expect((await raw(s, 'GET', '/api/v2/open/info/appconfig', { Host: `evil.example:${port}` })).status).toBe(421);
    expect((await raw(s, 'GET', '/api/v2/open/info/appconfig', { Host: `evil.example:${port}`, 'X-Forwarded-Host': 'localhost' })).status).toBe(421);
    // the Host of this request is the server's own address
    expect(await appBase(s, { 'X-Forwarded-Host': 'evil.example', 'X-Forwarded-Proto': 'https' })).toBe(s.url);
    // an own address with another port than the one the server listens on: the port it listens on
    expect(await appBase(s, { Host: '127.0.0.1:1' })).toBe(s.url);

    const aliasId = await createAlias(s, alice, { name: 'Inbox' });
    const template = await raw(s, 'GET', `/api/v2/sec/mail/template/alias/${aliasId}`, { 'X-Forwarded-Host': 'evil.example', 'Service-Auth': alice.token });
    expect(template.status).toBe(200);
    expect(template.text).not.toContain('evil.example');
    expect(template.text).toContain(`${s.url}/app/share/${aliasId}`);

    // the tus creation answer's absolute Location
    const shareId = await guestShare(s, aliasId);
    const created = await raw(s, 'POST', `/api/v2/alias/upload/${shareId}/files/tus`, {
      ...guest(aliasId),
      'X-Forwarded-Host': 'evil.example',
      'Tus-Resumable': '1.0.0',
      'Upload-Length': '3',
      'Upload-Metadata': `filename ${Buffer.from('a.txt').toString('base64')}`,
    });
    expect(created.status).toBe(201);
    expect(String(created.headers['location'])).toMatch(new RegExp(`^${s.url}/api/v2/alias/upload/`));
  });

  it('ignore them in the mail a guest makes the server send to the owner', async () => {
    const aliasId = await createAlias(s, alice, { name: 'Papers' });
    const shareId = await guestShare(s, aliasId);
    await guestTusUpload(s, aliasId, shareId, bytes(100), 'a.bin');
    const before = smtp.mails.length;
    // a forged Host is refused before anything is sent
    expect((await raw(s, 'POST', `/api/v2/alias/mail/notify/${shareId}`, { ...guest(aliasId), Host: 'evil.example' })).status).toBe(421);
    const res = await raw(s, 'POST', `/api/v2/alias/mail/notify/${shareId}`, { ...guest(aliasId), 'X-Forwarded-Host': 'evil.example' });
    expect(res.status).toBe(200);
    const [mail] = (await smtp.waitFor(before + 1)).slice(before);
    expect(smtp.mails.length).toBe(before + 1);
    expect(mail!.parsed.text).not.toContain('evil.example');
    expect(mail!.parsed.text).toContain(`${s.url}/app/upload/${shareId}`);
  });

  it('use a Host that names this server with the port it listens on', async () => {
    expect(await appBase(s, { Host: `127.0.0.1:${port}` })).toBe(`http://127.0.0.1:${port}`);
    expect(await appBase(s, { Host: `localhost:${port}` })).toBe(`http://localhost:${port}`);
    expect(await appBase(s, { Host: `LOCALHOST:${port}` })).toBe(`http://localhost:${port}`);
    expect(await appBase(s, { Host: `[::1]:${port}` })).toBe(`http://[::1]:${port}`);
  });
});

describe('links behind a trusted proxy', () => {
  let s: TestServer;

  beforeAll(async () => {
    s = await startServer({ config: { 'base-url': CONFIGURED, 'trusted-proxies': ['127.0.0.1'], 'allowed-hosts': ['files.example.test'] } });
  });
  afterAll(() => s.stop());

  it('use the forwarded host and scheme', async () => {
    expect(await appBase(s, { 'X-Forwarded-Host': 'files.example.test', 'X-Forwarded-Proto': 'https' })).toBe('https://files.example.test');
    expect(await appBase(s, { 'X-Forwarded-Host': 'files.example.test:8443, other.example', 'X-Forwarded-Proto': 'https' })).toBe(
      'https://files.example.test:8443',
    );
    // a forwarded value that is no host is ignored: the host of base-url with the port the server listens on
    const port = new URL(s.url).port;
    expect(await appBase(s, { 'X-Forwarded-Host': 'evil.example/path?x', Host: `127.0.0.1:${port}` })).toBe(`http://localhost:${port}`);
    // even a trusted proxy forwards only names the server answers to
    expect((await raw(s, 'GET', '/api/v2/open/info/appconfig', { 'X-Forwarded-Host': 'evil.example', Host: `127.0.0.1:${port}` })).status).toBe(421);
  });
});

describe('links with a public base-url', () => {
  it('are always the configured base-url', async () => {
    const s = await startServer({ config: { 'base-url': 'https://pier.example.test', 'trusted-proxies': ['127.0.0.1'], 'allowed-hosts': ['files.example.test'] } });
    try {
      expect(await appBase(s, { 'X-Forwarded-Host': 'files.example.test', Host: `127.0.0.1:${new URL(s.url).port}` })).toBe('https://pier.example.test');
    } finally {
      await s.stop();
    }
  });
});
