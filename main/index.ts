// Electron main process. For now it opens one window on a Pier server running at
// SERVER_URL (`npm run serve`); hosting the server in-process, the tray and the
// desktop settings come with the desktop app itself.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, shell } from 'electron';

const SERVER_URL = 'http://localhost:9090';
const APP_URL = `${SERVER_URL}/app`;
/** Read by preload/index.ts, which cannot ask `app` for the version itself. */
const VERSION_ARG = '--pier-version=';

const here = dirname(fileURLToPath(import.meta.url));
const PRELOAD = join(here, '..', 'preload', 'index.js');

let mainWindow: BrowserWindow | null = null;

function createMainWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1200,
    height: 800,
    title: 'Pier',
    show: false,
    webPreferences: {
      preload: PRELOAD,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      additionalArguments: [`${VERSION_ARG}${app.getVersion()}`],
    },
  });
  lockToServerOrigin(win);
  win.once('ready-to-show', () => win.show());
  win.on('closed', () => {
    if (mainWindow === win) mainWindow = null;
  });
  void win.loadURL(APP_URL);
  return win;
}

/** The window stays on the server's origin; other web links open in the system browser. */
function lockToServerOrigin(win: BrowserWindow): void {
  const origin = new URL(SERVER_URL).origin;
  win.webContents.on('will-navigate', (event, url) => {
    if (originOf(url) === origin) return;
    event.preventDefault();
    openExternally(url);
  });
  win.webContents.setWindowOpenHandler(({ url }) => {
    openExternally(url);
    return { action: 'deny' };
  });
}

function openExternally(url: string): void {
  // Only web and mail links: a page must not make the desktop open local files or apps.
  if (/^(https?|mailto):/i.test(url)) void shell.openExternal(url);
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

function showMainWindow(): void {
  if (mainWindow === null) {
    mainWindow = createMainWindow();
    return;
  }
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.show();
  mainWindow.focus();
}

if (!app.requestSingleInstanceLock()) {
  // Another Pier is running; it gets a 'second-instance' event and shows its window.
  app.quit();
} else {
  app.on('second-instance', showMainWindow);
  app.on('activate', showMainWindow);
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  await app.whenReady();
  showMainWindow();
}
