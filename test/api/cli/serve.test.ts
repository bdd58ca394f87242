import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_MEMORY_ENV, SERVER_NODE_FLAGS } from '../../../server/process/flags.js';
import { npmServe, running, waitFor } from '../../support/cli-run.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const cli = join(root, 'dist/server/cli.js');

interface Run {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  exited: Promise<number | null>;
}

/** The processes of this user that run the server's command line: pid, parent, arguments and environment (Linux). */
const serverProcesses = (): Array<{ pid: number; ppid: number; argv: string[]; env: string[] }> =>
  readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((pid) => {
      try {
        const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').slice(0, -1);
        if (!argv.some((a) => a === 'dist/server/cli.js' || a.endsWith('/dist/server/cli.js'))) return [];
        const env = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
        const ppid = Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
        return [{ pid: Number(pid), ppid, argv, env }];
      } catch {
        return []; // gone, or not ours
      }
    });

const run = (cmd: string, args: string[], env: Record<string, string>): Run => {
  const child = spawn(cmd, args, { cwd: root, env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...env } });
  let out = '';
  let err = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, out: () => out, err: () => err, exited };
};

describe('the headless server command', () => {
  const cleanups: Array<() => void> = [];
  let dir: string;
  beforeAll(() => {
    if (!existsSync(cli)) throw new Error('dist/server/cli.js is missing: run `npm run build:server` (npm test does).');
  });
  afterEach(() => {
    for (const c of cleanups.splice(0)) c();
  });
  const tempDir = () => {
    dir = mkdtempSync(join(tmpdir(), 'pier-cli-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    return dir;
  };

  it('starts on embedded defaults without a file, creates the first admin once and stops on SIGTERM', async () => {
    const data = tempDir();
    const r = run(process.execPath, [cli], { SERVICE_DATA_DIR: data, SERVICE_BIND_PORT: '0', SERVICE_BIND_ADDRESS: '127.0.0.1' });
    cleanups.push(() => r.child.kill('SIGKILL'));
    const [, url] = await waitFor(() => /Pier is running at (http:\/\/\S+)\/app/.exec(r.out()));
    const [, password] = /password: +(\S+)/.exec(r.out())!;
    const cfg = await fetch(`${url}/api/v2/open/info/appconfig`);
    expect(cfg.status).toBe(200);
    expect(((await cfg.json()) as { appName: string }).appName).toBe('Pier');
    const login = await fetch(`${url}/api/v2/open/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account: 'admin', password }),
    });
    expect(((await login.json()) as { admin: boolean }).admin).toBe(true);
    expect(existsSync(join(data, 'pier.db'))).toBe(true);
    expect(existsSync(join(data, 'server-secret'))).toBe(true);
    r.child.kill('SIGTERM');
    expect(await r.exited).toBe(0);

    // a second start finds the admin and does not print a password again
    const again = run(process.execPath, [cli], { SERVICE_DATA_DIR: data, SERVICE_BIND_PORT: '0', SERVICE_BIND_ADDRESS: '127.0.0.1' });
    cleanups.push(() => again.child.kill('SIGKILL'));
    await waitFor(() => /Pier is running at/.exec(again.out()));
    expect(again.out()).not.toContain('password:');
    again.child.kill('SIGINT');
    expect(await again.exited).toBe(0);
  });

  // Without a configured data-dir the server used to keep its secret, database and
  // files in `<tmp>/pier`, where any local user could plant a server-secret (and forge
  // tokens with it) or read the database. The default is the user's own data folder,
  // created private.
  it.runIf(process.platform === 'linux')('without any configuration keeps its data private in the user’s data folder', async () => {
    const home = tempDir();
    const r = run(process.execPath, [cli], { HOME: home, SERVICE_BIND_PORT: '0', SERVICE_BIND_ADDRESS: '127.0.0.1' });
    cleanups.push(() => r.child.kill('SIGKILL'));
    await waitFor(() => /Pier is running at (http:\/\/\S+)\/app/.exec(r.out()));
    const data = join(home, '.local', 'share', 'pier');
    const mode = (p: string) => statSync(p).mode & 0o777;
    expect(mode(data)).toBe(0o700);
    expect(mode(join(data, 'server-secret'))).toBe(0o600);
    expect(mode(join(data, 'pier.db'))).toBe(0o600);
    expect(r.err()).not.toContain('data-dir');
    r.child.kill('SIGTERM');
    expect(await r.exited).toBe(0);
  });

  // A data directory that others can write to was accepted, so a secret planted in it
  // signed valid tokens. Start-up refuses it, says why, and exits non-zero.
  it.runIf(process.platform !== 'win32')('refuses a data directory that others can write to, saying why', async () => {
    const data = tempDir();
    chmodSync(data, 0o777);
    const r = run(process.execPath, [cli], { SERVICE_DATA_DIR: data, SERVICE_BIND_PORT: '0', SERVICE_BIND_ADDRESS: '127.0.0.1' });
    cleanups.push(() => r.child.kill('SIGKILL'));
    expect(await r.exited).toBe(1);
    expect(r.err()).toContain(`service.restserver.data-dir: ${data} can be written by group or others (mode 0777)`);
    expect(r.err()).not.toMatch(/\n\s+at /);
    expect(existsSync(join(data, 'server-secret'))).toBe(false);
    expect(r.out()).not.toContain('Pier is running');
  });

  it.runIf(process.platform === 'linux')(
    "npm run serve starts the server with the server's Node flags and memory environment, a variable of the caller winning, and stops it when it gets SIGTERM itself",
    async () => {
      const data = tempDir();
      const r = npmServe([], { SERVICE_DATA_DIR: data, SERVICE_BIND_PORT: '0', SERVICE_BIND_ADDRESS: '127.0.0.1', MALLOC_ARENA_MAX: '1' });
      cleanups.push(() => void r.stop());
      await running(r);
      const [server, ...more] = serverProcesses().filter((p) => p.env.includes(`SERVICE_DATA_DIR=${data}`));
      expect(more).toEqual([]);
      expect(server!.argv.slice(1, -1)).toEqual(SERVER_NODE_FLAGS);
      expect(server!.env).toEqual(expect.arrayContaining(['MALLOC_ARENA_MAX=1', ...Object.entries(SERVER_MEMORY_ENV).filter(([k]) => k !== 'MALLOC_ARENA_MAX').map(([k, v]) => `${k}=${v}`)]));
      // only the process that started the server gets the signal, as from a service manager
      process.kill(server!.ppid, 'SIGTERM');
      expect(await r.exited).toBe(0);
      expect(r.out()).toContain('Pier is running');
      expect(existsSync(`/proc/${server!.pid}`)).toBe(false);
    },
  );

  it('reads a HOCON file given as the only argument; the environment wins over it', async () => {
    const data = tempDir();
    const file = join(data, 'pier.conf');
    writeFileSync(
      file,
      `service.restserver {\n  data-dir = "${data}"\n  bind { address = "127.0.0.1", port = 0 }\n  webapp.app-name = "From file"\n  webapp.app-name = \${?APP_NAME_FROM_ENV}\n  webapp.welcome-message = "hello"\n}\n`,
    );
    const r = run(process.execPath, [cli, file], { APP_NAME_FROM_ENV: 'Substituted', SERVICE_WEBAPP_WELCOME_MESSAGE: 'from env' });
    cleanups.push(() => r.child.kill('SIGKILL'));
    const [, url] = await waitFor(() => /Pier is running at (http:\/\/\S+)\/app/.exec(r.out()));
    const cfg = (await (await fetch(`${url}/api/v2/open/info/appconfig`)).json()) as Record<string, unknown>;
    expect(cfg['appName']).toBe('Substituted');
    expect(cfg['welcomeMessage']).toBe('from env');
    r.child.kill('SIGTERM');
    await r.exited;
  });

  it('reports every configuration error at once and exits non-zero', async () => {
    const data = tempDir();
    const file = join(data, 'bad.conf');
    writeFileSync(file, `service.restserver {\n  data-dir = "${data}"\n  bind.port = "ninety"\n  backend.share.max-size = "huge"\n  backend.jdbc.url = "jdbc:h2:./x.db"\n}\n`);
    const r = run(process.execPath, [cli, file], {});
    expect(await r.exited).toBe(1);
    const err = r.err();
    expect(err).toContain('service.restserver.bind.port');
    expect(err).toContain('ninety');
    expect(err).toContain('service.restserver.backend.share.max-size');
    expect(err).toContain('jdbc:sqlite:');
    expect(err).not.toMatch(/\n\s+at /);
  });

  it('npm start without an Electron runtime says so in one line and runs the headless server', async () => {
    const data = tempDir();
    // the download goes to a closed port on loopback, so it fails at once and nothing leaves the machine
    const env = { SERVICE_DATA_DIR: data, SERVICE_BIND_PORT: '0', SERVICE_BIND_ADDRESS: '127.0.0.1', ELECTRON_MIRROR: 'http://127.0.0.1:9/' };
    const r = run(process.execPath, [join(root, 'scripts/start.mjs')], env);
    cleanups.push(() => r.child.kill('SIGKILL'));
    await waitFor(() => /Pier is running at/.exec(r.out()));
    const lines = r.out().split('\n');
    expect(lines[0]).toMatch(/^No Electron runtime: its download failed \(.*ECONNREFUSED.*\)\. Running the headless server instead\.$/);
    expect(lines.filter((l) => /Electron/.test(l))).toHaveLength(1);
    r.child.kill('SIGTERM');
    expect(await r.exited).toBe(0);
    // the failure is kept in the data folder: the next start does not try again
    expect(JSON.parse(readFileSync(join(data, 'electron-download.json'), 'utf8'))).toMatchObject({ reason: expect.stringContaining('ECONNREFUSED') });
    const again = run(process.execPath, [join(root, 'scripts/start.mjs')], env);
    cleanups.push(() => again.child.kill('SIGKILL'));
    await waitFor(() => /Pier is running at/.exec(again.out()));
    expect(again.out().split('\n')[0]).toMatch(/^No Electron runtime: its download failed \d+ min ago \(.*ECONNREFUSED.*\); tried again after \d+ min/);
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
  });
});
