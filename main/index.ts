// Electron main process: a thin shell (tray, windows, notifications, settings) that
// wires the small modules of main/ to Electron, one setupX() function per concern.
// The server runs in a utility process (server-host.ts); nothing of server/ is loaded
// here, so the tray appears at once and a crash there never takes the app down.
import { userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { app, BrowserWindow, clipboard, dialog, ipcMain, Menu, nativeImage, Notification, safeStorage, session, shell, Tray, utilityProcess } from 'electron';
import { SERVER_MEMORY_ENV, SERVER_NODE_FLAGS } from '../server/process/flags.js';
import { startedAtLogin, userDataArg } from './app-args.js';
import { setAutostart } from './autostart.js';
import { desktopHandlers } from './desktop-ipc.js';
import { createSettings, needsRestart, type DesktopSettings, type Settings } from './desktop-settings.js';
import { electronSettingsStore } from './electron-settings-store.js';
import { needsFirstStart, setupDefaults, setupHandlers } from './first-start.js';
import { setupQuit, type Quitting } from './lifecycle.js';
import { hasTrayHost, isWayland } from './linux-desktop.js';
import { openLogFile } from './log-file.js';
import { registerIpc } from './ipc.js';
import { serverAddresses } from './network.js';
import { createNotifier, notificationEnabled, setupNotifications } from './notifications.js';
import { guardCookies, setupPermissions } from './permissions.js';
import { createPierApi, login } from './pier-api.js';
import { createServerHost, type ServerHost } from './server-host.js';
import { createTrayController, type TrayController } from './tray-actions.js';
import { buildTrayMenu, toMenuTemplate, trayClickOpensWindow } from './tray-menu.js';
import { createWindowManager, qrPage, type WindowManager } from './window-manager.js';
import { qrData } from './qr.js';
import { APP_ID } from './app-identity.js';
import { electronSqliteBinding, SQLITE_BINDING_VAR } from './native-build.js';

// Windows: notifications and the taskbar belong to the installer's identity; first thing.
if (process.platform === 'win32') app.setAppUserModelId(APP_ID);

const here = dirname(fileURLToPath(import.meta.url)); // dist/main
const root = join(here, '..', '..');
const resources = join(root, 'resources');
const SETUP_PAGE = join(resources, 'setup', 'index.html');
const SERVER_ENTRY = join(here, '..', 'server', 'cli.js');

const log = (message: string) => console.log(`[pier] ${message}`);

/** The running server's origin (`http://127.0.0.1:<port>`), `null` while it is not running. */
const serverOrigin = (host: ServerHost) => (): string | null => {
  const s = host.state();
  return s.kind === 'running' ? s.localUrl : null;
};

/**
 * The server process's environment: this one without what would change the server
 * behind the desktop settings' back (`SERVICE_*` keys, Node and Electron switches),
 * with the memory settings and, in a development start, better-sqlite3 built for
 * Electron.
 */
const serverEnv = (): Record<string, string> => {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    // names compared upper-cased: Windows' environment is case-insensitive
    const name = k.toUpperCase();
    if (v === undefined || name === 'NODE_OPTIONS' || /^(SERVICE_|ELECTRON_|PIER_)/.test(name)) continue;
    env[k] = v;
  }
  // only a development start loads a module from outside the app
  const binding = app.isPackaged ? null : electronSqliteBinding(root);
  return { ...SERVER_MEMORY_ENV, ...env, ...(binding ? { [SQLITE_BINDING_VAR]: binding } : {}) };
};

/** The tray icon: a template image on macOS (drawn in the menu bar's colour), an .ico on Windows. */
const trayIcon = () => {
  if (process.platform === 'darwin') return nativeImage.createFromPath(join(resources, 'trayTemplate.png'));
  if (process.platform === 'win32') return nativeImage.createFromPath(join(resources, 'tray.ico'));
  return nativeImage.createFromPath(join(resources, 'tray.png'));
};

function setupWindows(host: ServerHost, settings: Settings, quit: Quitting, trayHost: Promise<boolean>): WindowManager {
  let toldWhereItWent = false;
  const windows: WindowManager = createWindowManager({
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
    quitting: quit.quitting,
    confirmClose: (win) =>
      dialog.showMessageBoxSync(win as BrowserWindow, {
        type: 'question',
        buttons: ['Close', 'Stay'],
        defaultId: 1,
        cancelId: 1,
        title: 'An upload is running',
        message: 'An upload is running in this window.',
        detail: 'If you close the window now, the upload stops. It can be resumed later from the same page.',
      }) === 0,
    onLoadError: (url, e) => log(`could not load ${url}: ${e.message}`),
    async onAppClosed() {
      // Linux without a tray host (GNOME without the AppIndicator extension): nothing would be left to reach Pier
      if (process.platform === 'linux' && !(await trayHost)) return app.quit();
      if (toldWhereItWent || !Notification.isSupported()) return;
      toldWhereItWent = true;
      new Notification({ title: 'Pier is still running', body: 'Guests can still send you files. Pier is in the tray; quit it from there.' }).show();
    },
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
  return windows;
}

function setupIpc(windows: WindowManager, settings: Settings, host: ServerHost): void {
  const pick = async (options: Electron.OpenDialogOptions) => {
    const r = await dialog.showOpenDialog(options);
    return r.canceled ? null : (r.filePaths[0] ?? null);
  };
  const pickFolder = () => pick({ properties: ['openDirectory', 'createDirectory'] });
  registerIpc(
    ipcMain,
    {
      ...desktopHandlers({
        appIds: windows.appIds,
        origin: serverOrigin(host),
        documentUrl: windows.documentUrl,
        settings,
        addresses: () => {
          const s = host.state();
          return s.kind === 'running' ? serverAddresses(s.port, settings.get().lan) : [];
        },
        pickFolder,
        pickConfigFile: () => pick({ properties: ['openFile'], filters: [{ name: 'HOCON or JSON', extensions: ['conf', 'hocon', 'json'] }] }),
        openPath: async (path) => void (await shell.openPath(path)),
      }),
      ...setupHandlers({
        settings,
        host,
        login,
        setupIds: windows.setupIds,
        pageUrl: pathToFileURL(SETUP_PAGE).href,
        defaults: () => setupDefaults(userInfo().username, app.getPath('documents')),
        pickFolder,
        async finish() {
          windows.closeSetup();
          await windows.showApp();
        },
      }),
    },
    log,
  );
}

function setupTray(host: ServerHost, settings: Settings, windows: WindowManager, settingsFile: string): TrayController {
  // On Wayland the clipboard takes text only from a focused window: the link is shown
  // in a small window and copied once it has the focus.
  const copy = (text: string, title: string) => {
    if (process.platform !== 'linux' || !isWayland()) return clipboard.writeText(text);
    void qrData(text).then((q) =>
      windows.showQr(qrPage(title, text, q.dataUrl, 'The link is copied to the clipboard.'), () => clipboard.writeText(text)),
    );
  };
  const controller = createTrayController({
    settings,
    host,
    api: () => {
      const account = settings.get().account;
      const s = host.state();
      return account && s.kind === 'running' ? createPierApi(s.localUrl, () => host.tokenFor(account)) : null;
    },
    windows,
    copy,
    async pickFiles() {
      const r = await dialog.showOpenDialog({ title: 'Share files', properties: ['openFile', 'multiSelections'] });
      return r.canceled ? [] : r.filePaths;
    },
    openPath: async (path) => void (await shell.openPath(path)),
    settingsFile: () => settingsFile,
    showError: (title, message) => dialog.showErrorBox(title, message),
    quit: () => app.quit(),
  });
  const tray = new Tray(trayIcon());
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
  if (trayClickOpensWindow(process.platform)) tray.on('click', () => void windows.showApp());
  render();
  return controller;
}

function setupGuestNotifications(host: ServerHost, settings: Settings, windows: WindowManager): void {
  if (!Notification.isSupported()) return;
  const notify = createNotifier(Notification, join(resources, 'icon.png'), (path) => void windows.showApp(path), process.platform === 'linux');
  setupNotifications((l) => host.onServerEvent(l), (e) => notificationEnabled(settings.get(), e), notify);
}

/** Start at login: Electron's login items on Windows and macOS, an XDG autostart entry on Linux. */
function applyLoginItem(s: DesktopSettings): void {
  if (process.platform === 'linux') {
    // an AppImage runs from a mount that changes at each start: the entry must name the image itself
    const command = process.env['APPIMAGE'] ? [process.env['APPIMAGE']] : app.isPackaged ? [process.execPath] : [process.execPath, root];
    try {
      setAutostart(s.startAtLogin, command);
    } catch (e) {
      log(`could not change the autostart entry: ${e instanceof Error ? e.message : String(e)}`);
    }
    return;
  }
  app.setLoginItemSettings({ openAtLogin: s.startAtLogin, args: process.platform === 'win32' ? ['--hidden'] : [] });
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

function setupLifecycle(windows: WindowManager, settings: Settings, quit: Quitting): void {
  const showSomething = () => (needsFirstStart(settings.get()) ? windows.showSetup() : void windows.showApp());
  app.on('second-instance', showSomething);
  app.on('activate', showSomething);
  // Closing the last window keeps Pier running in the tray.
  app.on('window-all-closed', () => undefined);
  // Windows: a shutdown or logout skips before-quit and tells the windows instead
  app.on('browser-window-created', (_e, win) => win.on('session-end', () => quit.sessionEnds()));
  if (process.platform === 'win32') new BrowserWindow({ show: false, width: 1, height: 1, skipTaskbar: true, webPreferences: { sandbox: true } });
}

async function main(): Promise<void> {
  await app.whenReady();
  // Linux without a key store: safeStorage "encrypts" with a fixed password; the file's 0600 is then the protection, said plainly
  const box = {
    isEncryptionAvailable: () =>
      safeStorage.isEncryptionAvailable() && !(process.platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text'),
    encryptString: (plain: string) => safeStorage.encryptString(plain),
    decryptString: (data: Buffer) => safeStorage.decryptString(data),
  };
  const store = electronSettingsStore(box, log);
  const settings = createSettings(store, log);
  const logFile = openLogFile(join(app.getPath('logs'), 'server.log'));
  const host = createServerHost({
    fork: utilityProcess.fork,
    entry: SERVER_ENTRY,
    dataDir: app.getPath('userData'),
    execArgv: SERVER_NODE_FLAGS,
    env: serverEnv(),
    output: (chunk) => logFile.write(chunk),
  });
  const quit = setupQuit(app, host);
  const trayHost = process.platform === 'linux' ? hasTrayHost() : Promise.resolve(true);
  setupPermissions(session.defaultSession, serverOrigin(host));
  guardCookies(session.defaultSession, serverOrigin(host));
  const windows = setupWindows(host, settings, quit, trayHost);
  setupIpc(windows, settings, host);
  // the tray first: it shows "starting" while the server comes up
  const tray = setupTray(host, settings, windows, store.path);
  // The desktop smoke test (test/desktop) reads the tray's state from the main process.
  Object.assign(globalThis, { pierTray: tray });
  setupGuestNotifications(host, settings, windows);
  setupSettingsChanges(settings, host, windows);
  setupLifecycle(windows, settings, quit);
  applyLoginItem(settings.get());

  if (needsFirstStart(settings.get())) return windows.showSetup();
  const state = await host.start(settings.get());
  if (state.kind === 'error') dialog.showErrorBox('Pier could not start', `${state.reason}\n\nChange the settings from the tray menu.`);
  else if (!startedAtLogin(process.platform, process.argv, () => app.getLoginItemSettings().wasOpenedAtLogin)) await windows.showApp();
}

const userData = userDataArg(process.argv, process.cwd());
if (userData) app.setPath('userData', userData);

if (!app.requestSingleInstanceLock()) {
  // Another Pier is running; it gets 'second-instance' and shows its window.
  app.quit();
} else {
  main().catch((e: unknown) => {
    dialog.showErrorBox('Pier', e instanceof Error ? (e.stack ?? e.message) : String(e));
    app.exit(1);
  });
}
