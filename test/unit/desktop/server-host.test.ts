// The desktop's server host against the REAL server (port 0, a temp user-data folder).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../server/common/log.js';
import { droppedExternalBytes } from '../../../server/process/young-collection.js';
import { loadConfig } from '../../../server/config/index.js';
import { defaultSettings, type DesktopSettings } from '../../../main/desktop-settings.js';
import { login } from '../../../main/pier-api.js';
import { renderServerConfig } from '../../../main/server-config.js';
import { CONFIG_FILE, createServerHost, type HostState, type ServerHost } from '../../../main/server-host.js';
import { minorCollectionsDuring } from '../../support/minor-collections.js';

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

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pier-desktop-'));
  host = createServerHost({ dataDir: join(dir, 'userData'), logger: () => silentLogger });
});
afterEach(async () => {
  await host.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('server configuration from the desktop settings', () => {
  it('loads with the server’s own loader: user-data folder, received-files store, LAN, closed sign-up, player for users', async () => {
    const s = settingsFor({ lan: true, port: 9191 });
    const file = join(dir, 'server.conf');
    writeFileSync(file, renderServerConfig(s, join(dir, 'data')));
    const { config } = await loadConfig({ file, env: {}, defaults: { dataDir: join(dir, 'data') } });
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

describe('the process hosting the server', () => {
  it('has young collections on, so the buffers of uploads and database rows are freed as they are dropped', async () => {
    const collections = await minorCollectionsDuring(() => {
      for (let i = 0; i < 10; i++) droppedExternalBytes(4 * 1024 * 1024);
    });
    expect(collections).toBeGreaterThanOrEqual(10);
  });
});
