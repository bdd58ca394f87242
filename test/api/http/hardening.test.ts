/**
 * Regressions of an outside audit's hardening list: `/api/doc` and `/custom`
 * could be framed by any site (no `frame-ancestors`), and `/custom` served
 * dot-files (`.env`, `.git/config`, `.htpasswd`) that an operator's folder
 * often holds.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../support/server.js';

const directives = (policy: string | null): Record<string, string[]> =>
  Object.fromEntries(
    (policy ?? '')
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...sources]) => [name!, sources]),
  );

describe('the API docs and custom content', () => {
  let s: TestServer;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pier-custom-'));
    writeFileSync(join(dir, 'index.html'), '<p>hello</p>');
    writeFileSync(join(dir, '.env'), 'SECRET=1');
    writeFileSync(join(dir, '.htpasswd'), 'admin:x');
    mkdirSync(join(dir, '.git'));
    writeFileSync(join(dir, '.git', 'config'), '[core]');
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'sub', '.hidden.css'), 'p{}');
    writeFileSync(join(dir, 'sub', 'style.css'), 'p{}');
    s = await startServer({ config: { 'custom-content': { enabled: true, directory: dir } } });
  });
  afterAll(async () => {
    await s.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('carry a policy that forbids framing by other sites', async () => {
    for (const path of ['/api/doc', '/api/doc/', '/api/doc/init.js', '/api/doc/openapi.yml', '/custom/', '/custom/sub/style.css']) {
      const res = await fetch(s.url + path);
      expect(res.status, path).toBe(200);
      const csp = directives(res.headers.get('content-security-policy'));
      expect(csp['frame-ancestors'], path).toBeDefined();
      expect(csp['frame-ancestors']!.every((v) => v === "'none'" || v === "'self'"), path).toBe(true);
    }
    const doc = directives((await fetch(`${s.url}/api/doc`)).headers.get('content-security-policy'));
    expect(doc['frame-ancestors']).toEqual(["'none'"]);
    expect(doc['script-src']).toEqual(["'self'"]);
    expect(doc['object-src']).toEqual(["'none'"]);
  });

  it('never serves a dot-file or anything in a dot-folder from /custom', async () => {
    for (const path of ['/custom/.env', '/custom/.htpasswd', '/custom/.git/config', '/custom/sub/.hidden.css', '/custom/%2eenv', '/custom/sub/%2Ehidden.css', '/custom/.git/']) {
      const res = await fetch(s.url + path);
      expect(res.status, path).toBe(404);
      expect(await res.text()).not.toMatch(/SECRET|admin:x|\[core\]/);
    }
  });
});
