/**
 * 10 000 random paths against the routes never cause a 500 or serve a file
 * from outside Pier's folders; a request body trickling for 60 s does not
 * keep other clients waiting.
 */
import { request } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startServer, type TestServer } from '../../support/server.js';

const MARKER = 'pier-outside-marker-7f3a';
const prefixes = [
  '/', '/app/', '/api/doc/', '/api/doc/assets/', '/custom/', '/api/v2/open/share/', '/api/v2/open/alias/', '/api/v2/sec/share/',
  '/api/v2/sec/upload/', '/api/v2/admin/account/', '/api/v1/cover/album/', '/api/v1/cover/default/file/', '/api/v1/booklet/file/',
];
const pieces = ['..', '%2e%2e', '%2E%2E%2F', '%2F', '..%2f', '%00', '%ff', 'etc', 'passwd', 'outside.txt', '~', '', 'a'.repeat(300), 'ü', '%', '%zz', '.', 'files', 'tus', 'zip', 'file', '\\..\\', 'C:', '%5c'];

/** A deterministic pseudo-random generator, so a failure can be replayed. */
const rng = (seed: number) => () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};

const rawRequest = (url: string, method: string, path: string, headers: Record<string, string>) =>
  new Promise<{ status: number; body: string }>((resolve) => {
    const req = request(url + '/', { method, path, headers }, (res) => {
      let body = '';
      res.setEncoding('latin1');
      res.on('data', (c: string) => {
        if (body.length < 200_000) body += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', () => resolve({ status: 0, body: '' }));
    req.end();
  });

describe('hostile paths and slow clients', () => {
  let s: TestServer;
  let token: string;
  let outside: string;
  beforeAll(async () => {
    outside = mkdtempSync(join(tmpdir(), 'pier-outside-'));
    writeFileSync(join(outside, 'outside.txt'), MARKER);
    const custom = mkdtempSync(join(tmpdir(), 'pier-custom-'));
    writeFileSync(join(custom, 'hello.txt'), 'hello');
    s = await startServer({
      config: {
        'rate-limit': { enabled: false },
        player: { enabled: false },
        'custom-content': { enabled: true, directory: custom },
        // no minimum body rate: the trickling body below is about other clients being served meanwhile
        // (test/api/http/slow-clients.test.ts pins that a body below the minimum is cut)
        limits: { 'min-body-rate': 0 },
      },
    });
    token = await s.login(ADMIN.login, ADMIN.password);
  });
  afterAll(async () => {
    await s.stop();
    rmSync(outside, { recursive: true, force: true });
  });

  it('answers 10 000 random paths without a 500 and without serving anything from outside', async () => {
    const random = rng(42);
    const pick = <T>(xs: T[]): T => xs[Math.floor(random() * xs.length)]!;
    const bad: string[] = [];
    let next = 0;
    const total = 10_000;
    const worker = async () => {
      while (next < total) {
        next++;
        const segments = Array.from({ length: 1 + Math.floor(random() * 5) }, () => pick(pieces));
        const path = pick(prefixes) + segments.join(pick(['/', '/', '%2F', '/./']));
        const method = pick(['GET', 'GET', 'GET', 'HEAD', 'POST', 'DELETE']);
        const headers: Record<string, string> = random() < 0.5 ? { 'Service-Auth': token } : {};
        const res = await rawRequest(s.url, method, path, headers);
        if (res.status === 0 || res.status >= 500 || res.body.includes(MARKER) || res.body.includes('root:x:0:0')) {
          bad.push(`${method} ${path} → ${res.status}`);
        }
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    expect(bad).toEqual([]);
    // the server is still fine
    expect((await fetch(`${s.url}/custom/hello.txt`)).status).toBe(200);
  }, 180_000);

  it('keeps answering other clients while a request body trickles in for 60 s', async () => {
    const slowDone = new Promise<number>((resolve) => {
      const req = request(`${s.url}/api/v2/open/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Content-Length': '70' },
      }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', () => resolve(0));
      const body = JSON.stringify({ account: 'admin', password: 'x'.repeat(70 - 33) });
      let i = 0;
      const timer = setInterval(() => {
        req.write(body.slice(i, i + 1));
        i++;
        if (i >= body.length) {
          clearInterval(timer);
          req.end();
        }
      }, 60_000 / body.length);
    });
    let slowFinished = false;
    void slowDone.then(() => (slowFinished = true));
    // while the slow body trickles, 200 other requests are answered
    for (let i = 0; i < 200; i++) {
      const res = await fetch(`${s.url}/api/v2/open/info/version`);
      expect(res.status).toBe(200);
    }
    const login = await s.request('POST', '/api/v2/open/auth/login', { account: 'admin', password: ADMIN.password });
    expect(login.body['success']).toBe(true);
    expect(slowFinished).toBe(false);
    expect(await slowDone).toBe(200);
  }, 120_000);
});
