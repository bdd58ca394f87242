/**
 * Credentials handed to external login modules.
 *
 * Regression: the `command` module passed a login or password starting with
 * `-` to the program as it was, where it became an option: with the password
 * `--version` a program that prints its version and exits 0 logged anyone in
 * as any external account. The `http` module escaped `{{user}}`/`{{pass}}` for
 * the body's content type only through mustache's escape hook, which the
 * unescaped tags `{{{pass}}}` and `{{&pass}}` skip: a password could add a
 * second `user` field to a JSON or form body or to the URL and log in as
 * another user.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEndpoint } from '../../support/http-endpoint.js';
import { startServer, type TestServer } from '../../support/server.js';

const LOGIN = '/api/v2/open/auth/login';

/** A login program: accepts alice / alice-pw, takes the password first, exits 3 otherwise (node parses its own options). */
const checker = "const [p, u] = process.argv.slice(1); process.exit(u === 'alice' && p === 'alice-pw' ? 0 : 3)";

describe('command login module', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({
      config: {
        'rate-limit': { enabled: false },
        backend: { auth: { command: { enabled: true, program: [process.execPath, '-e', checker, '{{pass}}', '{{user}}'], order: 40 } } },
      },
    });
  });
  afterAll(() => s.stop());

  const login = async (account: string, password: string) => (await s.request('POST', LOGIN, { account, password })).body['success'];

  it('accepts the right credentials', async () => {
    expect(await login('alice', 'alice-pw')).toBe(true);
  });

  it('never lets a password or login become an option of the program', async () => {
    // `node -e <script> --version` prints the version and exits 0
    expect(await login('alice', '--version')).toBe(false);
    expect(await login('bob', '-v')).toBe(false);
    expect(await login('--version', 'x')).toBe(false);
    expect(s.logs()).toContain('would be an option of the authentication command');
  });

  it('passes values starting with `-` after a `--` of the template, where they are operands', async () => {
    const t = await startServer({
      config: {
        'rate-limit': { enabled: false },
        backend: {
          auth: {
            command: {
              enabled: true,
              program: [process.execPath, '-e', "process.exit(process.argv[1] === '-dash-pw' ? 0 : 3)", '--', '{{pass}}', '{{user}}'],
              order: 40,
            },
          },
        },
      },
    });
    try {
      expect((await t.request('POST', LOGIN, { account: 'carol', password: '-dash-pw' })).body['success']).toBe(true);
      expect((await t.request('POST', LOGIN, { account: 'carol', password: '--version' })).body['success']).toBe(false);
    } finally {
      await t.stop();
    }
  });
});

describe('http login module', () => {
  /** Accepts alice / alice-pw only; reads the first `user` of a query or form, the last of a JSON object (as JSON.parse does). */
  let endpoint: Awaited<ReturnType<typeof startEndpoint>>;
  beforeAll(async () => {
    endpoint = await startEndpoint((req, res) => {
      let fields: { user?: unknown; pass?: unknown } = {};
      try {
        const type = String(req.headers['content-type'] ?? '');
        if (type.startsWith('application/json')) fields = JSON.parse(req.body) as typeof fields;
        else {
          const form = new URLSearchParams(type.startsWith('application/x-www-form-urlencoded') ? req.body : req.url.split('?')[1]);
          fields = { user: form.get('user'), pass: form.get('pass') };
        }
      } catch {
        // not JSON: refused
      }
      res.writeHead(fields.user === 'alice' && fields.pass === 'alice-pw' ? 200 : 403).end();
    });
  });
  afterAll(() => endpoint.stop());

  const cases: Array<[string, Record<string, string>, string]> = [
    ['JSON body, {{{pass}}}', { method: 'POST', body: '{"user":"{{user}}","pass":"{{{pass}}}"}', 'content-type': 'application/json' }, 'alice-pw","user":"alice'],
    ['JSON body, {{&pass}}', { method: 'POST', body: '{"user":"{{user}}","pass":"{{&pass}}"}', 'content-type': 'application/json' }, 'alice-pw","user":"alice'],
    ['form body, {{{pass}}}', { method: 'POST', body: 'pass={{{pass}}}&user={{user}}', 'content-type': 'application/x-www-form-urlencoded' }, 'alice-pw&user=alice'],
    ['URL, {{{pass}}}', { method: 'GET', url: '/check?pass={{{pass}}}&user={{user}}' }, 'alice-pw&user=alice'],
  ];

  it.each(cases)('%s: the password is escaped for where it goes and cannot log in as another user', async (_name, http, injected) => {
    const s = await startServer({
      config: {
        'rate-limit': { enabled: false },
        backend: { auth: { http: { enabled: true, order: 5, ...http, url: `${endpoint.url}${http['url'] ?? '/check'}` } } },
      },
    });
    try {
      expect((await s.request('POST', LOGIN, { account: 'alice', password: 'alice-pw' })).body['success']).toBe(true);
      const bob = await s.request('POST', LOGIN, { account: 'bob', password: injected });
      expect(bob.body['success']).toBe(false);
    } finally {
      await s.stop();
    }
  });

  it('the values reach the endpoint intact, whatever they hold', async () => {
    const odd = 'p&s= w/ä"\\ü?#+%{{user}}\u2028';
    const seen = endpoint.seen.length;
    const s = await startServer({
      config: {
        'rate-limit': { enabled: false },
        backend: { auth: { http: { enabled: true, order: 5, method: 'POST', url: `${endpoint.url}/check?p={{{pass}}}`, body: '{"pass":"{{{pass}}}"}', 'content-type': 'application/json; charset=utf-8' } } },
      },
    });
    try {
      await s.request('POST', LOGIN, { account: 'alice', password: odd });
      const req = endpoint.seen[seen]!;
      expect(new URL(req.url, endpoint.url).searchParams.get('p')).toBe(odd);
      expect(JSON.parse(req.body)).toEqual({ pass: odd });
    } finally {
      await s.stop();
    }
  });
});
