// The desktop's server host against the REAL server entry (dist/server/cli.js) in a
// real child process: `child_process.fork` in the shape of Electron's `utilityProcess.fork`.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config/index.js';
import { defaultSettings, type DesktopSettings } from '../../../main/desktop-settings.js';
import { login } from '../../../main/pier-api.js';
import { renderServerConfig, secretEnv } from '../../../main/server-config.js';
import { CONFIG_FILE, createServerHost, type HostOptions, type HostState, type ServerHost } from '../../../main/server-host.js';
import { projectRoot } from '../../support/cli-run.js';
import { forkAsUtility, forked } from '../../support/utility-process.js';

const ENTRY = join(projectRoot, 'dist/server/cli.js');

let dir: string;
let host: ServerHost;
const ADMIN = { login: 'owner', password: 'a-generated-one-in-real-life' };

const settingsFor = (over: Partial<DesktopSettings> = {}): DesktopSettings => ({
  ...defaultSettings(),
  port: 0,
  lan: false,
  receivedFolder: join(dir, 'Received files'),
  ...over,
});

const running = (s: HostState): Extract<HostState, { kind: 'running' }> => {
  if (s.kind !== 'running') throw new Error(`expected running, got ${JSON.stringify(s)}`);
  return s;
};

let output = '';
const hostWith = (over: Partial<HostOptions> = {}): ServerHost =>
  createServerHost({
    fork: forkAsUtility,
    entry: ENTRY,
    dataDir: join(dir, 'userData'),
    env: { PATH: process.env['PATH'] ?? '', HOME: dir },
    output: (chunk) => (output += chunk.toString()),
    ...over,
  });

beforeAll(() => {
  if (!existsSync(ENTRY)) throw new Error('dist/server/cli.js is missing: run `npm run build:server` (npm test does).');
});
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pier-desktop-'));
  output = '';
  host = hostWith();
});
afterEach(async () => {
  await host.stop();
  for (const p of forked.splice(0)) if (p.pid !== undefined) process.kill(p.pid, 'SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** Waits until `host` reaches a state of `kind`. */
const reaches = (h: ServerHost, kind: HostState['kind'], ms = 20_000): Promise<HostState> =>
  new Promise((resolve, reject) => {
    if (h.state().kind === kind) return resolve(h.state());
    const timer = setTimeout(() => reject(new Error(`no ${kind} state within ${ms} ms; now ${JSON.stringify(h.state())}`)), ms);
    const off = h.onState((s) => {
      if (s.kind !== kind) return;
      clearTimeout(timer);
      off();
      resolve(s);
    });
  });

const freePort = async (): Promise<number> => {
  const s = createNetServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as { port: number };
  await new Promise((r) => s.close(r));
  return port;
};

describe('server configuration from the desktop settings', () => {
  it('loads with the server’s own loader: user-data folder, received-files store, LAN, closed sign-up, player for users', async () => {
    const s = settingsFor({ lan: true, port: 9191 });
    const file = join(dir, 'server.conf');
    writeFileSync(file, renderServerConfig(s, join(dir, 'data')));
    const { config } = await loadConfig({ file, env: secretEnv(s), defaults: { dataDir: join(dir, 'data') } });
    expect(config.dataDir).toBe(join(dir, 'data'));
    expect(config.bind).toEqual({ address: '0.0.0.0', port: 9191 });
    expect(config.backend.files.defaultStore).toBe('received');
    expect(config.backend.files.stores['received']).toMatchObject({ type: 'file-system', directory: s.receivedFolder, enabled: true });
    expect(config.backend.signup.mode).toBe('closed');
    expect(config.backend.signup.invitePassword).toBe(s.invitePassword);
    expect(config.player.access).toBe('user');
    expect(config.backend.mail.enabled).toBe(false);
    expect(config.backend.jdbc.url).toBe(`jdbc:sqlite:${join(dir, 'data')}/pier.db`);
  });

  it('includes the extra HOCON file; the desktop settings win for the keys they manage', async () => {
    const extra = join(dir, 'extra.conf');
    writeFileSync(extra, 'service.restserver {\n  webapp.app-name = "My Pier"\n  bind.port = 1\n  backend.share.max-size = 2G\n}\n');
    const s = settingsFor({ extraConfigFile: extra, port: 9292, playerConnections: [{ id: 'kitchen', title: 'Kitchen', host: 'pi', port: 6601, password: '' }] });
    const file = join(dir, 'server.conf');
    writeFileSync(file, renderServerConfig(s, dir));
    const { config } = await loadConfig({ file, env: {}, defaults: { dataDir: dir } });
    expect(config.webapp.appName).toBe('My Pier');
    expect(config.backend.share.maxSize).toBe(2 * 1024 ** 3);
    expect(config.bind.port).toBe(9292);
    expect(config.player.connections['kitchen']).toMatchObject({ host: 'pi', port: 6601, title: 'Kitchen' });
    expect(config.player.connections['default']).toBeDefined();
  });
});

describe('server host', () => {
  it('starts the real server, creates the first admin, and signs in', async () => {
    const states: string[] = [];
    host.onState((s) => states.push(s.kind));
    const s = running(await host.start(settingsFor(), ADMIN));
    expect(s.localUrl).toBe(`http://127.0.0.1:${s.port}`);
    expect(states).toEqual(['starting', 'running']);
    const res = await fetch(`${s.localUrl}/api/v2/open/info/version`);
    expect(res.status).toBe(200);
    expect((await login(s.localUrl, ADMIN.login, ADMIN.password)).admin).toBe(true);
    // the generated config file is private to the user
    const mode = (await import('node:fs')).statSync(join(dir, 'userData', CONFIG_FILE)).mode & 0o777;
    if (process.platform !== 'win32') expect(mode).toBe(0o600);
    expect(readFileSync(join(dir, 'userData', CONFIG_FILE), 'utf8')).toContain('"default-store": "received"');
  });

  it('stops (nothing listens any more, the database is closed) and starts again on the same data', async () => {
    const first = running(await host.start(settingsFor(), ADMIN));
    await host.stop();
    expect(host.state()).toEqual({ kind: 'stopped' });
    await expect(fetch(`${first.localUrl}/api/v2/open/info/version`)).rejects.toThrow();
    // the SQLite file can be opened again and still has the account
    const second = running(await host.start(settingsFor()));
    expect((await login(second.localUrl, ADMIN.login, ADMIN.password)).admin).toBe(true);
  });

  it('restarts cleanly with changed settings', async () => {
    const a = running(await host.start(settingsFor(), ADMIN));
    const before = await (await fetch(`${a.localUrl}/api/v2/open/info/appconfig`)).json();
    expect(before).toMatchObject({ signupMode: 'closed' });
    const b = running(await host.restart(settingsFor({ signupMode: 'open' })));
    const after = await (await fetch(`${b.localUrl}/api/v2/open/info/appconfig`)).json();
    expect(after).toMatchObject({ signupMode: 'open' });
    expect(host.settingsInUse()?.signupMode).toBe('open');
  });

  it('reports a port in use as an error state with the reason', async () => {
    const blocker: Server = createNetServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    try {
      expect(await host.start(settingsFor({ port }), ADMIN)).toEqual({ kind: 'error', reason: `Port ${port} is already in use by another program.` });
    } finally {
      blocker.close();
    }
    // and recovers on the next start
    running(await host.start(settingsFor(), ADMIN));
  });

  it('reports an invalid extra configuration file with the key and value', async () => {
    const extra = join(dir, 'bad.conf');
    writeFileSync(extra, 'service.restserver.backend.share.max-size = "lots"\n');
    const s = await host.start(settingsFor({ extraConfigFile: extra }), ADMIN);
    expect(s.kind).toBe('error');
    expect(s.kind === 'error' && s.reason).toMatch(/^Invalid configuration: .*max-size.*lots/);
    const missing = await host.start(settingsFor({ extraConfigFile: join(dir, 'nope.conf') }), ADMIN);
    expect(missing.kind).toBe('error');
  });

  it('runs one operation at a time when start, restart and stop are clicked together', async () => {
    const results = await Promise.all([host.start(settingsFor(), ADMIN), host.restart(settingsFor()), host.stop(), host.start(settingsFor())]);
    expect(results.map((r) => (r as HostState | undefined)?.kind)).toEqual(['running', 'running', undefined, 'running']);
    expect(host.state().kind).toBe('running');
  });

  it('signs tokens for the desktop account that the server accepts (and checks the account)', async () => {
    const s = running(await host.start(settingsFor(), ADMIN));
    const me = await login(s.localUrl, ADMIN.login, ADMIN.password);
    const token = await host.tokenFor({ id: me.id, login: me.login });
    const ok = await fetch(`${s.localUrl}/api/v2/sec/auth/session`, { method: 'POST', headers: { 'Service-Auth': token } });
    expect(ok.status).toBe(200);
    const forged = await host.tokenFor({ id: 'no-such-account', login: 'owner' });
    const refused = await fetch(`${s.localUrl}/api/v2/sec/auth/session`, { method: 'POST', headers: { 'Service-Auth': forged } });
    expect(refused.status).toBe(401);
    await host.stop();
    await expect(host.tokenFor(me)).rejects.toThrow('not running');
  });
});

describe('the server process', () => {
  it('runs in a process of its own, not in the host’s', async () => {
    running(await host.start(settingsFor(), ADMIN));
    const pid = forked.at(-1)?.pid;
    expect(pid).toBeGreaterThan(0);
    expect(pid).not.toBe(process.pid);
  });

  it('restarts the server after a crash (SIGKILL), shows why meanwhile, and keeps its data and port', async () => {
    const port = await freePort();
    host = hostWith({ restartDelayMs: 50 });
    const before = running(await host.start(settingsFor({ port }), ADMIN));
    const seen: HostState[] = [];
    host.onState((s) => seen.push(s));
    process.kill(forked.at(-1)!.pid!, 'SIGKILL');
    await reaches(host, 'restarting');
    const after = running(await reaches(host, 'running'));
    expect(seen[0]).toEqual({ kind: 'restarting', reason: 'The server stopped unexpectedly (killed by SIGKILL)' });
    expect(after.localUrl).toBe(before.localUrl);
    expect((await login(after.localUrl, ADMIN.login, ADMIN.password)).admin).toBe(true);
  });

  it('stops restarting after crashes in a row and says so', async () => {
    const fork = forkAsUtility;
    host = hostWith({
      entry: join(projectRoot, 'test/fixtures/hosted/misbehaving-server.mjs'),
      restartDelayMs: 5,
      fork: (entry, _args, options) => fork(entry, ['crash'], options),
    });
    await host.start(settingsFor());
    const s = await reaches(host, 'error');
    expect(s).toEqual({ kind: 'error', reason: 'The server stopped 5 times in a row; last: The server stopped unexpectedly (exit code 3)' });
  });

  it('kills a server that does not stop within the bound', async () => {
    const fork = forkAsUtility;
    host = hostWith({
      entry: join(projectRoot, 'test/fixtures/hosted/misbehaving-server.mjs'),
      stopTimeoutMs: 200,
      fork: (entry, _args, options) => fork(entry, ['hang'], options),
    });
    await host.start(settingsFor());
    const proc = forked.at(-1)!;
    const t0 = Date.now();
    await host.stop();
    expect(host.state()).toEqual({ kind: 'stopped' });
    expect(proc.pid).toBeUndefined();
    // 200 ms asked, 2 s after SIGTERM, then SIGKILL
    expect(Date.now() - t0).toBeLessThan(4_000);
  });

  it('gives the server its passwords in its environment, never in the written file', async () => {
    const settings = settingsFor({
      mail: { ...defaultSettings().mail, password: 'mail-secret-1' },
      playerConnections: [{ id: 'kitchen', title: 'Kitchen', host: 'pi', port: 6600, password: 'mpd-secret-2' }],
    });
    running(await host.start(settings, ADMIN));
    const file = readFileSync(join(dir, 'userData', CONFIG_FILE), 'utf8');
    for (const secret of ['mail-secret-1', 'mpd-secret-2', settings.invitePassword]) expect(file).not.toContain(secret);
    const { config } = await loadConfig({ file: join(dir, 'userData', CONFIG_FILE), env: secretEnv(settings) });
    expect(config.backend.mail.smtp.password).toBe('mail-secret-1');
    expect(config.player.connections['kitchen']?.password).toBe('mpd-secret-2');
    expect(config.backend.signup.invitePassword).toBe(settings.invitePassword);
  });

  it('sends the server’s output to the log', async () => {
    running(await host.start(settingsFor(), ADMIN));
    expect(output).toContain('Pier is listening on');
  });
});

describe('stopping during a start', () => {
  it('ends a server that is still starting at once instead of waiting for its start', async () => {
    const fork = forkAsUtility;
    // a stand-in that never answers hello: a start that would take the whole start bound
    host = hostWith({
      entry: join(projectRoot, 'test/fixtures/hosted/misbehaving-server.mjs'),
      fork: (entry, _args, options) => fork(entry, ['mute'], options),
    });
    const starting = host.start(settingsFor());
    await reaches(host, 'starting');
    await new Promise((r) => setTimeout(r, 200));
    const t0 = Date.now();
    await host.stop({ abortStart: true });
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(host.state()).toEqual({ kind: 'stopped' });
    expect((await starting).kind).toBe('error');
  });
});
