import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Logger } from '../../../server/common/log.js';
import { commandModule } from '../../../server/core/auth/login-modules/command.module.js';
import { httpBasicModule } from '../../../server/core/auth/login-modules/http-basic.module.js';
import { httpModule } from '../../../server/core/auth/login-modules/http.module.js';
import { startEndpoint, type SeenRequest } from '../../support/http-endpoint.js';

const fixture = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures', 'auth-command.mjs');
const password = 'p&s= w/ä"\\ü?#+%';

/** A logger that keeps every line, to check passwords never reach the log. */
const recordingLogger = () => {
  const lines: string[] = [];
  const log: Logger = {
    trace: () => undefined,
    debug: () => undefined,
    info: (m, f) => void lines.push(JSON.stringify([m, f])),
    warn: (m, f) => void lines.push(JSON.stringify([m, f])),
    error: (m, f) => void lines.push(JSON.stringify([m, f])),
    child: () => log,
  };
  return { log, lines };
};

let endpoint: Awaited<ReturnType<typeof startEndpoint>>;
let base: string;
let seen: SeenRequest[];
const validBasic = `Basic ${Buffer.from('alice:s3cret with space').toString('base64')}`;

beforeAll(async () => {
  endpoint = await startEndpoint((req, res) => {
    const path = req.url.split('?')[0] ?? '';
    if (path.startsWith('/status/')) res.statusCode = Number(path.split('/')[2]);
    else if (path === '/redirect') res.writeHead(302, { location: '/status/200' });
    else if (path === '/basic') res.statusCode = req.headers.authorization === validBasic ? 204 : 401;
    else res.statusCode = 404;
    res.end('answer');
  });
  base = endpoint.url;
  seen = endpoint.seen;
});
afterAll(() => endpoint.stop());
afterEach(() => void seen.splice(0));

const closedPort = async (): Promise<number> => {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
};

const http = (url: string, method = 'GET', body = '', contentType = '') => {
  const rec = recordingLogger();
  return { ...rec, module: httpModule({ enabled: true, url, method, body, contentType, order: 20 }, rec.log) };
};

describe('http login module', () => {
  it('GET: renders the URL with percent-encoded values and succeeds on 2xx', async () => {
    const { module, lines } = http(`${base}/status/200/{{user}}?p={{pass}}`);
    expect(await module.check('alice@example.test', password)).toEqual({
      kind: 'success',
      login: 'alice@example.test',
      source: 'extern',
      admin: false,
    });
    const [req] = seen;
    expect(req?.method).toBe('GET');
    expect(req?.url).toBe(`/status/200/${encodeURIComponent('alice@example.test')}?p=${encodeURIComponent(password)}`);
    expect(new URL(req?.url ?? '', base).searchParams.get('p')).toBe(password);
    expect(req?.body).toBe('');
    expect(lines.join()).not.toContain('p&s');
  });

  it('POST form body: values percent-encoded, content type sent', async () => {
    const ct = 'application/x-www-form-urlencoded';
    const { module } = http(`${base}/status/201`, 'post', 'user={{user}}&pass={{pass}}', ct);
    expect((await module.check('alice', password)).kind).toBe('success');
    const [req] = seen;
    expect(req?.method).toBe('POST');
    expect(req?.headers['content-type']).toBe(ct);
    expect(req?.body).toBe(`user=alice&pass=${encodeURIComponent(password)}`);
    expect(new URLSearchParams(req?.body).get('pass')).toBe(password);
  });

  it('POST JSON body: values JSON-escaped', async () => {
    const { module } = http(`${base}/status/200`, 'POST', '{"user":"{{user}}","pass":"{{pass}}"}', 'application/json; charset=utf-8');
    expect((await module.check('alice', password)).kind).toBe('success');
    expect(JSON.parse(seen[0]?.body ?? '')).toEqual({ user: 'alice', pass: password });
  });

  it('POST other content types: values raw', async () => {
    const { module } = http(`${base}/status/200`, 'POST', '{{user}}:{{pass}}', 'text/plain');
    expect((await module.check('alice', password)).kind).toBe('success');
    expect(seen[0]?.body).toBe(`alice:${password}`);
  });

  it.each([401, 500])('fails on %i, logging the status but not the password', async (status) => {
    const { module, lines } = http(`${base}/status/${status}?p={{pass}}`);
    expect(await module.check('alice', password)).toEqual({ kind: 'fail' });
    expect(lines.join()).toContain(String(status));
    expect(lines.join()).not.toContain(encodeURIComponent(password));
  });

  it('does not follow redirects', async () => {
    const { module } = http(`${base}/redirect`);
    expect(await module.check('alice', password)).toEqual({ kind: 'fail' });
    expect(seen.map((s) => s.url)).toEqual(['/redirect']);
  });

  it('fails when nothing listens, without throwing or logging the URL', async () => {
    const { module, lines } = http(`http://127.0.0.1:${await closedPort()}/auth?p={{pass}}`);
    expect(await module.check('alice', password)).toEqual({ kind: 'fail' });
    expect(lines.join()).toContain('ECONNREFUSED');
    expect(lines.join()).not.toContain(encodeURIComponent(password));
  });
});

describe('http-basic login module', () => {
  const basic = (path: string, method = 'GET') =>
    httpBasicModule({ enabled: true, url: `${base}${path}`, method, order: 30 }, recordingLogger().log);

  it('sends Basic authorization with the configured method; 2xx is a success', async () => {
    expect(await basic('/basic', 'post').check('alice', 's3cret with space')).toMatchObject({ kind: 'success', login: 'alice' });
    expect(seen[0]?.method).toBe('POST');
    expect(seen[0]?.headers.authorization).toBe(validBasic);
  });

  it('fails when the server refuses or is unreachable', async () => {
    expect(await basic('/basic').check('alice', 'wrong')).toEqual({ kind: 'fail' });
    const down = httpBasicModule({ enabled: true, url: `http://127.0.0.1:${await closedPort()}/`, method: 'GET', order: 30 }, recordingLogger().log);
    expect(await down.check('alice', 's3cret with space')).toEqual({ kind: 'fail' });
  });
});

describe('command login module', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pier-auth-cmd-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const command = (timeout = 10_000) => {
    const rec = recordingLogger();
    const program = [process.execPath, fixture, '{{user}}', '{{pass}}'];
    return { ...rec, module: commandModule({ enabled: true, program, success: 0, timeout, order: 40 }, rec.log) };
  };

  it('succeeds when the exit code is the configured success code', async () => {
    expect(await command().module.check('alice', 's3cret with space')).toMatchObject({ kind: 'success', source: 'extern' });
  });

  it('fails on another exit code, logging it but not the password', async () => {
    const { module, lines } = command();
    expect(await module.check('alice', 'wrong-secret')).toEqual({ kind: 'fail' });
    expect(lines.join()).toContain('"exitCode":1');
    expect(lines.join()).not.toContain('wrong-secret');
  });

  it('honours a non-zero success code', async () => {
    const rec = recordingLogger();
    const m = commandModule(
      { enabled: true, program: [process.execPath, fixture, '{{user}}', '{{pass}}'], success: 1, timeout: 10_000, order: 40 },
      rec.log,
    );
    expect((await m.check('bob', 'x')).kind).toBe('success');
  });

  it('passes each value as one argument, verbatim, without a shell', async () => {
    const marker = join(tmpdir(), `pwned-${randomBytes(8).toString('hex')}`);
    const out = join(dir, 'argv.json');
    const evil = [`x; touch ${marker}`, `$(touch ${marker})`, `\`touch ${marker}\``, `x && touch ${marker} | {{user}}`];
    vi.stubEnv('PIER_AUTH_ARGV_OUT', out);
    try {
      for (const pass of evil) {
        expect(await command().module.check('alice', pass)).toEqual({ kind: 'fail' });
        expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(['alice', pass]);
      }
    } finally {
      vi.unstubAllEnvs();
    }
    expect(existsSync(marker)).toBe(false);
  });

  // A program template that split a password with spaces into several arguments once made
  // the fixture write its argument dump to a file named by the third one (`with`), in the
  // working tree: the fixture writes only where the test names a file through the environment.
  it('leaves no file behind for extra arguments (the fixture writes only where PIER_AUTH_ARGV_OUT says)', async () => {
    const stray = join(dir, 'with');
    const rec = recordingLogger();
    const program = [process.execPath, fixture, '{{user}}', 's3cret', stray, 'space'];
    const m = commandModule({ enabled: true, program, success: 0, timeout: 10_000, order: 40 }, rec.log);
    expect(await m.check('alice', 'x')).toEqual({ kind: 'fail' });
    expect(existsSync(stray)).toBe(false);
  });

  it('fails (without throwing) when the program cannot be started', async () => {
    const m = commandModule({ enabled: true, program: [join(dir, 'missing')], success: 0, timeout: 1000, order: 40 }, recordingLogger().log);
    expect(await m.check('alice', 'x')).toEqual({ kind: 'fail' });
    expect(await command().module.check('alice', 'nul\0byte')).toEqual({ kind: 'fail' });
  });

  it('kills the program after the timeout and fails quickly', async () => {
    const { module, lines } = command(300);
    const started = Date.now();
    expect(await module.check('sleep', 'x')).toEqual({ kind: 'fail' });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(lines.join()).toContain('timeout');
  });
});
