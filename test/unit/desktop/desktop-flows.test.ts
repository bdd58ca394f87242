// First start, the tray's flows (share files, upload links) and guest-upload
// notifications, against the REAL server in a child process of the desktop's server host.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSettings, defaultSettings, memorySettingsStore, type Settings } from '../../../main/desktop-settings.js';
import { completeFirstStart, generatePassword, needsFirstStart, setupDefaults, setupHandlers, validateSetup } from '../../../main/first-start.js';
import { registerIpc, SETUP_CHANNELS } from '../../../main/ipc.js';
import { noticeFor, setupNotifications, type Notice } from '../../../main/notifications.js';
import { createPierApi, login } from '../../../main/pier-api.js';
import { createServerHost, type ServerEvent, type ServerHost } from '../../../main/server-host.js';
import { createTrayController } from '../../../main/tray-actions.js';
import { projectRoot } from '../../support/cli-run.js';
import { FakeIpcMain } from '../../support/fake-electron.js';
import { forkAsUtility, forked } from '../../support/utility-process.js';

const ENTRY = join(projectRoot, 'dist/server/cli.js');

let dir: string;
let host: ServerHost;
let settings: Settings;

beforeAll(() => {
  if (!existsSync(ENTRY)) throw new Error('dist/server/cli.js is missing: run `npm run build:server` (npm test does).');
});
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pier-desktop-'));
  host = createServerHost({ fork: forkAsUtility, entry: ENTRY, dataDir: join(dir, 'userData'), env: { PATH: process.env['PATH'] ?? '', HOME: dir } });
  settings = createSettings(memorySettingsStore({ ...defaultSettings(), port: 0, lan: false }));
});
afterEach(async () => {
  await host.stop();
  for (const p of forked.splice(0)) if (p.pid !== undefined) process.kill(p.pid, 'SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const folder = () => join(dir, 'Received files');
const firstStart = (password: string | null, loginName = 'Me') =>
  completeFirstStart({ login: loginName, password, receivedFolder: folder() }, { settings, host, login });
const localUrl = () => {
  const s = host.state();
  if (s.kind !== 'running') throw new Error('not running');
  return s.localUrl;
};

describe('first start', () => {
  it('suggests a login and a folder, and checks the form', () => {
    expect(setupDefaults('Jane Doe', '/home/jane/Documents', 'linux')).toEqual({ login: 'admin', receivedFolder: '/home/jane/Documents/Pier/Received files', firewallNote: false });
    expect(setupDefaults('jane', '/d', 'win32').firewallNote).toBe(true);
    expect(setupDefaults('jane', '/d').login).toBe('jane');
    expect(validateSetup({ login: 'a b', password: 'short', receivedFolder: 'rel' }).map((e) => e.field)).toEqual(['login', 'password', 'receivedFolder']);
    expect(validateSetup({ login: 'me', password: null, receivedFolder: '/x', admin: true }).map((e) => e.field)).toEqual(['admin']);
    const a = generatePassword();
    expect(a).toMatch(/^[A-Za-z0-9_-]{20}$/);
    expect(generatePassword()).not.toBe(a);
  });

  it('creates the admin with a generated password shown once, starts the server and remembers the account', async () => {
    expect(needsFirstStart(settings.get())).toBe(true);
    const r = await firstStart(null);
    if (!r.success) throw new Error(JSON.stringify(r.errors));
    expect(r.login).toBe('me');
    expect(r.generatedPassword).toMatch(/^[A-Za-z0-9_-]{20}$/);
    expect(host.state().kind).toBe('running');
    const me = await login(localUrl(), 'me', r.generatedPassword!);
    expect(me.admin).toBe(true);
    expect(settings.get().account).toEqual({ id: me.id, login: 'me' });
    expect(settings.get().receivedFolder).toBe(folder());
    expect(needsFirstStart(settings.get())).toBe(false);
    expect(JSON.stringify(settings.get())).not.toContain(r.generatedPassword!);
  });

  it('uses a chosen password and never answers with it', async () => {
    const r = await firstStart('my own password');
    expect(r).toEqual({ success: true, login: 'me', generatedPassword: null });
    expect((await login(localUrl(), 'me', 'my own password')).admin).toBe(true);
  });

  it('on a data folder that has accounts already, asks for an existing admin instead', async () => {
    expect((await firstStart('first password')).success).toBe(true);
    settings.replace({ ...settings.get(), account: null });
    const again = await firstStart(null, 'someone');
    expect(again).toMatchObject({ success: false, errors: [{ field: 'login' }] });
    expect(settings.get().account).toBeNull();
    expect((await firstStart('first password')).success).toBe(true);
  });
});

describe('the first-start window', () => {
  it('takes the suggested folder or one from the folder dialog, never one the page made up', async () => {
    const ipc = new FakeIpcMain();
    const page = 'file:///app/resources/setup/index.html';
    registerIpc(
      ipc,
      setupHandlers({
        settings,
        host,
        login,
        setupIds: () => new Set([3]),
        pageUrl: page,
        defaults: () => setupDefaults('me', dir, 'linux'),
        pickFolder: async () => join(dir, 'Chosen'),
        finish: async () => undefined,
      }),
    );
    const from = { id: 3, url: page };
    const made = await ipc.invoke(SETUP_CHANNELS.complete, from, { login: 'me', password: null, receivedFolder: '/etc' });
    expect(made).toEqual({ success: false, errors: [{ field: 'receivedFolder', message: 'Choose the folder with the button' }] });
    expect(host.state().kind).toBe('stopped');
    expect(await ipc.invoke(SETUP_CHANNELS.pickFolder, from)).toBe(join(dir, 'Chosen'));
    const r = (await ipc.invoke(SETUP_CHANNELS.complete, from, { login: 'me', password: null, receivedFolder: join(dir, 'Chosen') })) as { success: boolean };
    expect(r.success).toBe(true);
    expect(settings.get().receivedFolder).toBe(join(dir, 'Chosen'));
  });
});

describe('tray flows as the desktop account', () => {
  const setUp = async () => {
    const r = await firstStart('desktop password');
    if (!r.success) throw new Error('first start failed');
    const copied: string[] = [];
    const qr: string[] = [];
    const errors: string[] = [];
    const setups: number[] = [];
    let pick: string[] = [];
    const controller = createTrayController({
      settings,
      host,
      api: () => createPierApi(localUrl(), () => host.tokenFor(settings.get().account!)),
      windows: { showApp: async () => undefined, showQr: (html) => void qr.push(html), showSetup: () => void setups.push(1) },
      copy: (t) => void copied.push(t),
      pickFiles: async () => pick,
      openPath: async () => undefined,
      settingsFile: () => join(dir, 'settings.json'),
      showError: (_t, m) => void errors.push(m),
      quit: () => undefined,
    });
    return { controller, copied, qr, errors, setups, pickFiles: (p: string[]) => (pick = p) };
  };

  it('"Share files…": creates a share, uploads the files, publishes it, copies and shows the link', async () => {
    const t = await setUp();
    const a = join(dir, 'a.txt');
    const b = join(dir, 'b é.bin');
    writeFileSync(a, 'hello from the tray');
    writeFileSync(b, Buffer.alloc(300_000, 7));
    t.pickFiles([a, b]);
    await t.controller.dispatch({ type: 'share-files' });
    expect(t.errors).toEqual([]);
    expect(t.copied).toHaveLength(1);
    const link = t.copied[0]!;
    expect(link).toMatch(new RegExp(`^${localUrl()}/app/open/[A-Za-z0-9_-]+$`));
    expect(t.qr[0]).toContain('data:image/svg+xml;base64,');
    const pid = link.split('/').pop()!;
    const pub = (await (await fetch(`${localUrl()}/api/v2/open/share/${pid}`)).json()) as { files: { filename: string; size: number; storedSize: number }[] };
    expect(pub.files.map((f) => [f.filename, f.storedSize]).sort()).toEqual([
      ['a.txt', 19],
      ['b é.bin', 300_000],
    ]);
  });

  it('cancelling the file picker does nothing', async () => {
    const t = await setUp();
    await t.controller.dispatch({ type: 'share-files' });
    expect([t.copied, t.qr, t.errors]).toEqual([[], [], []]);
  });

  it('"New upload link…" creates an alias, shows its QR code at once and lists it in the menu', async () => {
    const t = await setUp();
    await t.controller.refreshAliases();
    expect(t.controller.state().aliases).toEqual([]);
    await t.controller.dispatch({ type: 'new-upload-link' });
    expect(t.errors).toEqual([]);
    const aliases = t.controller.state().aliases!;
    expect(aliases).toHaveLength(1);
    expect(aliases[0]!.name).toMatch(/^Upload link \d{4}-\d\d-\d\d \d\d:\d\d$/);
    expect(t.copied).toEqual([`${localUrl()}/app/share/${aliases[0]!.id}`]);
    expect(t.qr).toHaveLength(1);
    const open = await fetch(`${localUrl()}/api/v2/open/alias/${aliases[0]!.id}`);
    expect(open.status).toBe(200);
  });

  it('"Invite the room…" opens a room for the player, copies its link and shows its QR code; again: the same room', async () => {
    const t = await setUp();
    await t.controller.dispatch({ type: 'invite-room' });
    expect(t.errors).toEqual([]);
    expect(t.copied).toHaveLength(1);
    expect(t.copied[0]).toMatch(new RegExp(`^${localUrl()}/app/room/[A-Za-z0-9_-]{22,}$`));
    expect(t.qr).toHaveLength(1);
    const id = t.copied[0]!.split('/').pop()!;
    const open = await fetch(`${localUrl()}/api/v1/open/room/${id}`);
    expect(open.status).toBe(200);
    await t.controller.dispatch({ type: 'invite-room' });
    expect(t.copied[1]).toBe(t.copied[0]);
  });

  it('the periodic refresh of upload links rebuilds the menu only when they changed', async () => {
    const t = await setUp();
    await t.controller.refreshAliases();
    let rebuilt = 0;
    t.controller.onChange(() => rebuilt++);
    await t.controller.refreshAliases();
    await t.controller.refreshAliases();
    expect(rebuilt).toBe(0);
    await t.controller.dispatch({ type: 'new-upload-link' });
    expect(rebuilt).toBe(1);
  });

  it('stop and start from the tray', async () => {
    const t = await setUp();
    await t.controller.dispatch({ type: 'stop' });
    expect(t.controller.state().server.kind).toBe('stopped');
    expect(t.controller.state().aliases).toBeNull();
    await t.controller.dispatch({ type: 'start' });
    expect(t.controller.state().server.kind).toBe('running');
    expect(t.controller.state().aliases).toEqual([]);
  });

  it('a guest upload through an upload link gives a notification that opens the share', async () => {
    const t = await setUp();
    const events: ServerEvent[] = [];
    const notices: Notice[] = [];
    host.onServerEvent((e) => events.push(e));
    setupNotifications((l) => host.onServerEvent(l), () => settings.get().notifications, (n) => notices.push(n));
    await t.controller.dispatch({ type: 'new-upload-link' });
    const alias = t.controller.state().aliases![0]!;

    const form = new FormData();
    form.append('file', new Blob(['guest bytes']), 'from-guest.txt');
    const res = await fetch(`${localUrl()}/api/v2/alias/upload`, { method: 'POST', headers: { 'Service-Alias': alias.id }, body: form });
    const body = (await res.json()) as { success: boolean; id: string };
    expect(body.success).toBe(true);
    await expect.poll(() => notices.length).toBe(1);
    expect(events[0]).toMatchObject({ type: 'guest-upload-completed', shareId: body.id, aliasId: alias.id, fileCount: 1, totalSize: 11 });
    expect(notices[0]).toEqual({
      title: `Files arrived through “${alias.name}”`,
      body: expect.stringMatching(/^1 file · \d+ \w+ · 11 bytes\. Click to open\.$/),
      path: `/app/upload/${body.id}`,
    });

    // notifications switched off in the settings: no notice
    settings.update({ notifications: false });
    const form2 = new FormData();
    form2.append('file', new Blob(['more']), 'second.txt');
    await fetch(`${localUrl()}/api/v2/alias/upload`, { method: 'POST', headers: { 'Service-Alias': alias.id }, body: form2 });
    await expect.poll(() => events.length).toBe(2);
    expect(notices).toHaveLength(1);
  });
});

describe('notices', () => {
  it('describe the upload', () => {
    const e: ServerEvent = { type: 'guest-upload-completed', shareId: 's/1', aliasId: 'a', aliasName: 'Photos', shareName: 'From Anna · 3 photos · 23 Nov', fileCount: 3, totalSize: 5 * 1024 * 1024 };
    expect(noticeFor(e)).toEqual({ title: 'Files arrived through “Photos”', body: 'From Anna · 3 photos · 23 Nov · 5.0 MB. Click to open.', path: '/app/upload/s%2F1' });
    expect(noticeFor({ ...e, shareName: '' })?.body).toBe('3 files · 5.0 MB. Click to open.');
  });
});
