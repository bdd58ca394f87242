import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { npmServe, projectRoot as root, run, running, type CliRun as Run } from '../../support/cli-run.js';

const cli = join(root, 'dist/server/cli.js');
const fixture = (name: string) => join(root, 'test/fixtures/sharry', name);
const K = 'service.restserver';


describe('Sharry configuration files on the headless server', () => {
  const cleanups: Array<() => void | Promise<void>> = [];
  beforeAll(() => {
    if (!existsSync(cli)) throw new Error('dist/server/cli.js is missing: run `npm run build:server` (npm test does).');
  });
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'pier-sharry-cli-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    return dir;
  };
  const start = (r: Run) => {
    cleanups.push(() => r.stop());
    return r;
  };
  /** A fixture with its H2 URL replaced by Pier's default database URL for `data`. */
  const withDefaultUrl = (name: string, data: string): string => {
    const url = `jdbc:sqlite:${data}/pier.db`;
    const text = readFileSync(fixture(name), 'utf8');
    const out = text.replace(/^(\s*url = )"jdbc:h2:.*$/m, `$1"${url}"`).replace(/"url":"jdbc:h2:[^"]*"/, `"url":"${url}"`);
    expect(out).not.toContain('jdbc:h2:');
    const file = join(data, name);
    writeFileSync(file, out);
    return file;
  };
  const local = (data: string) => ({ SERVICE_DATA_DIR: data, SERVICE_BIND_PORT: '0', SERVICE_BIND_ADDRESS: '127.0.0.1' });

  // docker/sharry.conf enables the fixed login and relies on Sharry's admin/admin.
  // That was reported as two errors, one per key, neither naming the variables to set.
  it('refuses docker/sharry.conf with one message naming the two keys and their variables', async () => {
    const r = start(run(process.execPath, [cli, fixture('docker.conf')], { HOME: tempDir() }));
    expect(await r.exited).toBe(1);
    expect(r.err()).toBe(
      'The configuration has 1 error(s):\n' +
        `  - ${K}.backend.auth.fixed: is enabled without a user and a password, and there is no default (no admin/admin); ` +
        `set ${K}.backend.auth.fixed.user and ${K}.backend.auth.fixed.password ` +
        '(environment: SERVICE_BACKEND_AUTH_FIXED_USER and SERVICE_BACKEND_AUTH_FIXED_PASSWORD)\n',
    );
    expect(r.out()).toBe('');
  });

  it('starts on reference.conf with the default database URL, warning about its published server secret', async () => {
    const data = tempDir();
    const r = start(run(process.execPath, [cli, withDefaultUrl('reference.conf', data)], local(data)));
    const url = await running(r);
    const cfg = (await (await fetch(`${url}/api/v2/open/info/appconfig`)).json()) as { appName: string };
    expect(cfg.appName).toBe('Sharry');
    expect(r.out()).toContain('hex:caffee is the published example secret (anyone could forge tokens with it); it is ignored');
    expect(r.err()).toBe('');
    await r.stop();
    expect(await r.exited).toBe(0);
  });

  it('refuses reference.conf with its H2 URL kept with exactly the H2 message', async () => {
    const r = start(run(process.execPath, [cli, fixture('reference.conf')], { HOME: tempDir() }));
    expect(await r.exited).toBe(1);
    const url = `jdbc:h2://${tmpdir()}/sharry-demo.db;MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE`;
    expect(r.err()).toBe(
      'The configuration has 1 error(s):\n' +
        `  - ${K}.backend.jdbc.url: H2 is not supported, use jdbc:sqlite:<file> for the embedded database, got ${JSON.stringify(url)}\n`,
    );
  });

  // The NixOS module writes `email-header = null` for "no e-mail header". Read as an
  // empty header name, it made every proxy login fail with a 500.
  it('signs in through the proxy with the NixOS module’s email-header = null', async () => {
    const data = tempDir();
    const file = withDefaultUrl('nixos-module.conf', data);
    expect(readFileSync(file, 'utf8')).toContain('"email-header":null');
    const r = start(
      run(process.execPath, [cli, file], {
        ...local(data),
        SERVICE_TRUSTED_PROXIES: '127.0.0.1',
        SERVICE_BACKEND_AUTH_PROXY_ENABLED: 'true',
        SERVICE_BACKEND_AUTH_PROXY_USER_HEADER: 'X-Valid-User',
      }),
    );
    const url = await running(r);
    const res = await fetch(`${url}/api/v2/open/auth/proxy`, { headers: { 'X-Valid-User': 'alice' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ success: true, user: 'alice' });
  });

  describe('SERVICE_CONFIG_FILE', () => {
    const conf = (data: string, name: string, appName: string) => {
      const file = join(data, name);
      writeFileSync(file, `service.restserver.webapp.app-name = "${appName}"\n`);
      return file;
    };
    const appName = async (r: Run) => {
      const url = await running(r);
      return ((await (await fetch(`${url}/api/v2/open/info/appconfig`)).json()) as { appName: string }).appName;
    };

    it('names the configuration file when `npm run serve` gets no argument', async () => {
      const data = tempDir();
      const r = start(npmServe([], { ...local(data), SERVICE_CONFIG_FILE: conf(data, 'env.conf', 'From the variable') }));
      expect(await appName(r)).toBe('From the variable');
      expect(r.out()).not.toContain('SERVICE_CONFIG_FILE');
    });

    it('gives way to the argument when both are given', async () => {
      const data = tempDir();
      const r = start(
        npmServe([conf(data, 'arg.conf', 'From the argument')], { ...local(data), SERVICE_CONFIG_FILE: conf(data, 'env.conf', 'From the variable') }),
      );
      expect(await appName(r)).toBe('From the argument');
    });

    it('stops the start when it names a missing file, saying so', async () => {
      const data = tempDir();
      const missing = join(data, 'missing.conf');
      const r = start(run(process.execPath, [cli], { ...local(data), SERVICE_CONFIG_FILE: missing }));
      expect(await r.exited).toBe(1);
      expect(r.err()).toMatch(new RegExp(`^The configuration has 1 error\\(s\\):\\n  - SERVICE_CONFIG_FILE: config file ${missing}: `));
      expect(r.err()).not.toMatch(/\n\s+at /);
    });
  });
});
