// Electron main process: wires the small modules of main/ to Electron, one setupX()
// function per concern. The logic lives in those modules (tested under Node); this
// file only connects them to the real Electron API.
import { userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { app, BrowserWindow, clipboard, dialog, ipcMain, Menu, nativeImage, Notification, session, shell, Tray } from 'electron';
import { desktopHandlers } from './desktop-ipc.js';
import { createSettings, needsRestart, type DesktopSettings, type Settings } from './desktop-settings.js';
import { electronSettingsStore } from './electron-settings-store.js';
import { completeFirstStart, needsFirstStart, setupDefaults } from './first-start.js';
import { noArgs, oneArg, pageRule, registerIpc, SETUP_CHANNELS } from './ipc.js';
import { serverAddresses } from './network.js';
import { setupNotifications } from './notifications.js';
import { setupPermissions } from './permissions.js';
import { createPierApi, login } from './pier-api.js';
import { createServerHost, type ServerHost } from './server-host.js';
import { createTrayController, type TrayController } from './tray-actions.js';
import { buildTrayMenu, toMenuTemplate } from './tray-menu.js';
import { createWindowManager, type WindowManager } from './window-manager.js';

const here = dirname(fileURLToPath(import.meta.url)); // dist/main
const resources = join(here, '..', '..', 'resources');
const SETUP_PAGE = join(resources, 'setup', 'index.html');
/** Passed by the login item: start in the tray without opening a window. */
const HIDDEN_ARG = '--hidden';
/** `--pier-user-data=<dir>`: another user-data folder (a portable install, the desktop smoke test). */
const USER_DATA_ARG = '--pier-user-data=';

const log = (message: string) => console.log(`[pier] ${message}`);

/** The running server's origin (`http://127.0.0.1:<port>`), `null` while it is not running. */
const serverOrigin = (host: ServerHost) => (): string | null => {
  const s = host.state();
  return s.kind === 'running' ? s.localUrl : null;
};

function setupWindows(host: ServerHost, settings: Settings): WindowManager {
  return createWindowManager({
    BrowserWindow,
    paths: {
      appPreload: join(here, '..', 'preload', 'index.js'),
      setupPreload: join(here, '..', 'preload', 'setup.js'),
      icon: join(resources, 'icon.png'),
      version: app.getVersion(),
    },
    origin: serverOrigin(host),
    openExternal: (url) => void shell.openExternal(url),
    setupPage: SETUP_PAGE,
    // The desktop window opens signed in as the desktop's account, unless it holds a session already.
    async beforeLoad(origin) {
      const account = settings.get().account;
      if (!account) return;
      const existing = await session.defaultSession.cookies.get({ url: origin, name: 'service_auth' });
      if (existing.length > 0) return;
      const value = await host.tokenFor(account).catch(() => null);
      if (value) await session.defaultSession.cookies.set({ url: origin, name: 'service_auth', value, httpOnly: true, sameSite: 'lax', path: '/' });
    },
  });
}

function setupIpc(windows: WindowManager, settings: Settings, host: ServerHost, afterSetup: () => Promise<void>): void {
  const setup = pageRule(windows.setupIds, pathToFileURL(SETUP_PAGE).href);
  const pickFolder = async () => {
    const r = await dialog.showOpenDialog({ properties: ['openDirectory', 'createDirectory'] });
    return r.canceled ? null : (r.filePaths[0] ?? null);
  };
  const S = SETUP_CHANNELS;
  registerIpc(
    ipcMain,
    {
      ...desktopHandlers({
        appIds: windows.appIds,
        origin: serverOrigin(host),
        settings,
        addresses: () => {
          const s = host.state();
          return s.kind === 'running' ? serverAddresses(s.port, settings.get().lan) : [];
        },
        pickFolder,
        openPath: async (path) => void (await shell.openPath(path)),
      }),
      [S.defaults]: { rule: setup, check: noArgs, run: () => setupDefaults(userInfo().username, app.getPath('documents')) },
      [S.pickFolder]: { rule: setup, check: noArgs, run: pickFolder },
      [S.complete]: {
        rule: setup,
        check: oneArg('object'),
        run: (input) => completeFirstStart(input as Parameters<typeof completeFirstStart>[0], { settings, host, login }),
      },
      [S.finish]: { rule: setup, check: noArgs, run: afterSetup },
    },
    log,
  );
}

function setupTray(host: ServerHost, settings: Settings, windows: WindowManager, settingsFile: string): TrayController {
  const controller = createTrayController({
    settings,
    host,
    api: () => {
      const account = settings.get().account;
      const s = host.state();
      return account && s.kind === 'running' ? createPierApi(s.localUrl, () => host.tokenFor(account)) : null;
    },
    windows,
    clipboard,
    async pickFiles() {
      const r = await dialog.showOpenDialog({ title: 'Share files', properties: ['openFile', 'multiSelections'] });
      return r.canceled ? [] : r.filePaths;
    },
    openPath: async (path) => void (await shell.openPath(path)),
    settingsFile: () => settingsFile,
    showError: (title, message) => dialog.showErrorBox(title, message),
    quit: () => app.quit(),
  });
  const tray = new Tray(nativeImage.createFromPath(join(resources, 'tray.png')));
  tray.setToolTip('Pier');
  const render = () => {
    const items = buildTrayMenu(controller.state());
    tray.setContextMenu(Menu.buildFromTemplate(toMenuTemplate(items, (a) => void controller.dispatch(a))));
  };
  controller.onChange(render);
  host.onState((s) => {
    render();
    if (s.kind === 'running') void controller.refreshAliases();
  });
  // upload links may be created in the web client too
  setInterval(() => void controller.refreshAliases(), 60_000).unref();
  tray.on('click', () => {
    if (process.platform !== 'linux') void windows.showApp('/app');
  });
  render();
  return controller;
}

function setupGuestNotifications(host: ServerHost, settings: Settings, windows: WindowManager): void {
  if (!Notification.isSupported()) return;
  setupNotifications(
    (l) => host.onServerEvent(l),
    () => settings.get().notifications,
    (notice) => {
      const n = new Notification({ title: notice.title, body: notice.body, icon: join(resources, 'icon.png') });
      n.on('click', () => void windows.showApp(notice.path));
      n.show();
    },
  );
}

function applyLoginItem(s: DesktopSettings): void {
  // Windows and macOS; Linux desktops use autostart files, which Pier does not write.
  if (process.platform === 'linux') return;
  app.setLoginItemSettings({ openAtLogin: s.startAtLogin, args: [HIDDEN_ARG] });
}

function setupSettingsChanges(settings: Settings, host: ServerHost, windows: WindowManager): void {
  settings.onChange((next, previous) => {
    if (next.startAtLogin !== previous.startAtLogin) applyLoginItem(next);
    const inUse = host.settingsInUse();
    // a stopped server stays stopped; it starts with the new settings when the user starts it
    if (!inUse || !needsRestart(inUse, next) || host.state().kind === 'stopped') return;
    void host.restart(next).then(() => windows.reloadApp());
  });
}

function setupLifecycle(host: ServerHost, windows: WindowManager, settings: Settings): void {
  const showSomething = () => (needsFirstStart(settings.get()) ? windows.showSetup() : void windows.showApp('/app'));
  app.on('second-instance', showSomething);
  app.on('activate', showSomething);
  // Closing the last window keeps Pier running in the tray.
  app.on('window-all-closed', () => undefined);
  let stopped = false;
  app.on('before-quit', (event) => {
    if (stopped) return;
    event.preventDefault();
    void host.stop().finally(() => {
      stopped = true;
      app.quit();
    });
  });
}

async function main(): Promise<void> {
  await app.whenReady();
  const store = electronSettingsStore();
  const settings = createSettings(store, log);
  const host = createServerHost({ dataDir: app.getPath('userData'), warn: (m) => log(`configuration: ${m}`) });
  setupPermissions(session.defaultSession, serverOrigin(host));
  const windows = setupWindows(host, settings);
  setupIpc(windows, settings, host, async () => {
    windows.closeSetup();
    await windows.showApp('/app');
  });
  const tray = setupTray(host, settings, windows, store.path);
  // The desktop smoke test (test/desktop) reads the tray's state from the main process.
  Object.assign(globalThis, { pierTray: tray });
  setupGuestNotifications(host, settings, windows);
  setupSettingsChanges(settings, host, windows);
  setupLifecycle(host, windows, settings);
  applyLoginItem(settings.get());

  if (needsFirstStart(settings.get())) return windows.showSetup();
  const state = await host.start(settings.get());
  if (state.kind === 'error') dialog.showErrorBox('Pier could not start', `${state.reason}\n\nChange the settings from the tray menu.`);
  else if (!process.argv.includes(HIDDEN_ARG)) await windows.showApp('/app');
}

const userData = process.argv.find((a) => a.startsWith(USER_DATA_ARG));
if (userData) app.setPath('userData', userData.slice(USER_DATA_ARG.length));

if (!app.requestSingleInstanceLock()) {
  // Another Pier is running; it gets 'second-instance' and shows its window.
  app.quit();
} else {
  main().catch((e: unknown) => {
    dialog.showErrorBox('Pier', e instanceof Error ? (e.stack ?? e.message) : String(e));
    app.exit(1);
  });
}
