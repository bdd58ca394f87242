// `window.desktop` (settings with the SMTP and player passwords, folder pickers, the
// received folder) works only in a document that was loaded as the desktop settings
// page (`/app/desktop`) on the server's origin and while it still shows it: a script
// on another page cannot reach it with `history.pushState`. The preload checks at each
// call, and main/ checks again on the sender's current URL and the URL its document was
// loaded from. Folders and the extra configuration file come from main/'s own file
// dialogs, never from what a page sends. The object itself stays on every page of the
// server so the web client can feature-detect the desktop app.
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { runInNewContext } from 'node:vm';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { desktopHandlers } from '../../../main/desktop-ipc.js';
import { createSettings, memorySettingsStore, type DesktopSettings, defaultSettings } from '../../../main/desktop-settings.js';
import { DESKTOP_CHANNELS, desktopPageRule, isTrustedSender, registerIpc } from '../../../main/ipc.js';
import { STORED_PASSWORD } from '../../../preload/desktop-api.js';
import { FakeIpcMain } from '../../support/fake-electron.js';

const ORIGIN = 'http://127.0.0.1:9090';
/** an existing folder: the received folder is opened only when it is one */
const RECEIVED = tmpdir();
const PAGE = `${ORIGIN}/app/desktop`;
const appIds = new Set([7]);
/** The URL each window's document was loaded from (a full navigation, not pushState). */
const documents = new Map<number, string>([[7, `${ORIGIN}/app/desktop`]]);
const documentOf = (id: number) => documents.get(id);

const stored = (): DesktopSettings => ({
  ...defaultSettings(),
  receivedFolder: RECEIVED,
  mail: { enabled: true, host: 'smtp.example.org', port: 587, user: 'me', password: 'smtp-secret', sslType: 'starttls', defaultFrom: '' },
  playerConnections: [{ id: 'default', title: 'Living room', host: '192.168.1.5', port: 6600, password: 'mpd-secret' }],
});

const wire = () => {
  const ipc = new FakeIpcMain();
  const store = memorySettingsStore(stored());
  const settings = createSettings(store);
  const opened: string[] = [];
  registerIpc(
    ipc,
    desktopHandlers({
      appIds: () => appIds,
      origin: () => ORIGIN,
      settings,
      addresses: () => [{ name: 'localhost', url: ORIGIN }],
      documentUrl: documentOf,
      pickFolder: async () => '/picked',
      pickConfigFile: async () => '/picked/extra.conf',
      openPath: async (p) => void opened.push(p),
    }),
  );
  return { ipc, settings, store, opened };
};

describe('the desktop page rule', () => {
  const rule = desktopPageRule(() => appIds, () => ORIGIN, documentOf);
  const ev = (url: string, id = 7, parent: unknown = null) => ({ sender: { id }, senderFrame: { url, parent } });

  it('accepts the top frame of Pier’s window on the desktop settings page of the server', () => {
    for (const url of [PAGE, `${PAGE}/`, `${PAGE}?tab=mail`, `${PAGE}#mail`]) expect(isTrustedSender(ev(url), rule), url).toBe(true);
  });

  it('refuses every other page of the server, other origins, other windows and subframes', () => {
    for (const url of [`${ORIGIN}/app`, `${ORIGIN}/app/home`, `${ORIGIN}/app/desktopx`, `${ORIGIN}/app/desktop/x`, `${ORIGIN}/custom/app/desktop`, `${ORIGIN}/api/v2/open/share/x/file/y`, 'http://127.0.0.1:9091/app/desktop', 'http://localhost:9090/app/desktop', 'not a url'])
      expect(isTrustedSender(ev(url), rule), url).toBe(false);
    expect(isTrustedSender(ev(PAGE, 8), rule)).toBe(false);
    expect(isTrustedSender(ev(PAGE, 7, {}), rule)).toBe(false);
    expect(isTrustedSender(ev(PAGE), desktopPageRule(() => appIds, () => null, documentOf))).toBe(false);
  });

  it('refuses a document loaded at another page that moved to the settings page with pushState', () => {
    documents.set(7, `${ORIGIN}/app/home`);
    try {
      expect(isTrustedSender(ev(PAGE), rule)).toBe(false);
    } finally {
      documents.set(7, PAGE);
    }
    documents.delete(7);
    try {
      expect(isTrustedSender(ev(PAGE), rule)).toBe(false);
    } finally {
      documents.set(7, PAGE);
    }
  });
});

describe('the desktop IPC handlers', () => {
  it('refuse every channel to pages other than the desktop settings page', async () => {
    const { ipc, settings } = wire();
    for (const channel of Object.values(DESKTOP_CHANNELS)) {
      const args = channel === DESKTOP_CHANNELS.setSettings ? [{ port: 1234 }] : channel === DESKTOP_CHANNELS.qrData ? ['x'] : [];
      await expect(ipc.invoke(channel, { id: 7, url: `${ORIGIN}/app/home` }, ...args), channel).rejects.toThrow('Not allowed');
    }
    expect(settings.get().port).toBe(9090);
  });

  it('answer the desktop settings page, without ever sending a stored password to it', async () => {
    const { ipc, opened } = wire();
    const got = await ipc.invoke(DESKTOP_CHANNELS.getSettings, { id: 7, url: PAGE });
    expect(JSON.stringify(got)).not.toMatch(/smtp-secret|mpd-secret/);
    expect(got).toMatchObject({ mail: { password: STORED_PASSWORD }, playerConnections: [{ password: STORED_PASSWORD }] });
    const saved = await ipc.invoke(DESKTOP_CHANNELS.setSettings, { id: 7, url: PAGE }, { port: 9191 });
    expect(JSON.stringify(saved)).not.toMatch(/smtp-secret|mpd-secret/);
    expect(await ipc.invoke(DESKTOP_CHANNELS.pickFolder, { id: 7, url: PAGE })).toBe('/picked');
    await ipc.invoke(DESKTOP_CHANNELS.openFolder, { id: 7, url: PAGE });
    expect(opened).toEqual([RECEIVED]);
    expect(await ipc.invoke(DESKTOP_CHANNELS.lanAddresses, { id: 7, url: PAGE })).toEqual([{ name: 'localhost', url: ORIGIN }]);
  });

  it('take the received folder and the extra configuration file only from main/’s file dialogs', async () => {
    const { ipc, settings } = wire();
    for (const patch of [{ receivedFolder: '/etc' }, { extraConfigFile: '/tmp/evil.conf' }]) {
      const r = (await ipc.invoke(DESKTOP_CHANNELS.setSettings, { id: 7, url: PAGE }, patch)) as { success: boolean; errors?: { field: string }[] };
      expect(r.success, JSON.stringify(patch)).toBe(false);
      expect(r.errors?.map((e) => e.field)).toEqual(Object.keys(patch));
    }
    expect(settings.get().receivedFolder).toBe(RECEIVED);
    expect(settings.get().extraConfigFile).toBe('');

    expect(await ipc.invoke(DESKTOP_CHANNELS.pickFolder, { id: 7, url: PAGE })).toBe('/picked');
    expect(await ipc.invoke(DESKTOP_CHANNELS.pickConfigFile, { id: 7, url: PAGE })).toBe('/picked/extra.conf');
    const ok = (await ipc.invoke(DESKTOP_CHANNELS.setSettings, { id: 7, url: PAGE }, { receivedFolder: '/picked', extraConfigFile: '/picked/extra.conf' })) as { success: boolean };
    expect(ok.success).toBe(true);
    expect(settings.get()).toMatchObject({ receivedFolder: '/picked', extraConfigFile: '/picked/extra.conf' });
    // what one dialog returned is not accepted for the other setting
    const swapped = (await ipc.invoke(DESKTOP_CHANNELS.setSettings, { id: 7, url: PAGE }, { receivedFolder: '/picked/extra.conf' })) as { success: boolean };
    expect(swapped.success).toBe(false);
    // keeping the current values and removing the extra file need no dialog
    expect(((await ipc.invoke(DESKTOP_CHANNELS.setSettings, { id: 7, url: PAGE }, { receivedFolder: '/picked', extraConfigFile: '' })) as { success: boolean }).success).toBe(true);
  });
});

/** Runs preload/index.ts as a sandboxed preload runs, in a document at `href` (changeable later, as pushState does). */
const runPreload = (href: string, argv: string[]) => {
  const source = ts.transpileModule(readFileSync('preload/index.ts', 'utf8'), { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
  const exposed: Record<string, Record<string, unknown>> = {};
  const invoked: unknown[][] = [];
  const location = new URL(href);
  const electron = {
    contextBridge: { exposeInMainWorld: (key: string, api: Record<string, unknown>) => (exposed[key] = api) },
    ipcRenderer: { invoke: async (...args: unknown[]) => void invoked.push(args) },
  };
  const module = { exports: {} };
  runInNewContext(source, {
    module,
    exports: module.exports,
    process: { argv: ['electron', ...argv] },
    location,
    require: (name: string) => {
      if (name !== 'electron') throw new Error(`a sandboxed preload cannot require ${name}`);
      return electron;
    },
  });
  return { exposed, invoked, location };
};

describe('window.desktop in the page', () => {
  const argv = ['--pier-version=1.2.3', `--pier-origin=${ORIGIN}`];

  it('exists on every page of the server for feature detection, but its methods refuse to work off the settings page', async () => {
    const { exposed, invoked, location } = runPreload(`${ORIGIN}/app/home`, argv);
    const desktop = exposed['desktop']!;
    expect(desktop['isDesktop']).toBe(true);
    expect(desktop['version']).toBe('1.2.3');
    await expect((desktop['getSettings'] as () => Promise<unknown>)()).rejects.toThrow(/desktop settings page/);
    await expect((desktop['setSettings'] as (p: unknown) => Promise<unknown>)({ port: 1 })).rejects.toThrow(/desktop settings page/);
    // a script of this document moves it to the settings page with pushState: still refused
    location.href = `${ORIGIN}/app/desktop`;
    await expect((desktop['getSettings'] as () => Promise<unknown>)()).rejects.toThrow(/desktop settings page/);
    expect(invoked).toEqual([]);
  });

  it('works in a document loaded as the settings page, while it shows it', async () => {
    const { exposed, invoked, location } = runPreload(`${ORIGIN}/app/desktop`, argv);
    const desktop = exposed['desktop']!;
    await (desktop['getSettings'] as () => Promise<unknown>)();
    expect(invoked).toEqual([[DESKTOP_CHANNELS.getSettings]]);
    location.href = `${ORIGIN}/app/share`;
    await expect((desktop['qrData'] as (t: string) => Promise<unknown>)('x')).rejects.toThrow(/desktop settings page/);
    expect(invoked).toHaveLength(1);
  });

  it('does not exist in a document of another origin, or when main/ did not say which origin is the server', () => {
    expect(runPreload('http://127.0.0.1:9091/app/desktop', argv).exposed).toEqual({});
    expect(runPreload('https://evil.example/app/desktop', argv).exposed).toEqual({});
    expect(runPreload(`${ORIGIN}/app/desktop`, ['--pier-version=1.2.3']).exposed).toEqual({});
  });
});
