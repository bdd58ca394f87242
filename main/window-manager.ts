/**
 * Pier's windows: one app window (the server's `/app`; a restart on another origin
 * replaces it, as its preload knows one origin), the first-start window, QR windows.
 * It knows the webContents ids of its windows, which the IPC checks use. The
 * BrowserWindow class is passed in, so tests run it with a fake.
 */
import type { BrowserWindowConstructorOptions } from 'electron';
import { lockNavigation, windowOptions, type NavigableContents, type WindowKind, type WindowPaths } from './windows.js';

export interface WindowLike {
  webContents: NavigableContents & { id: number; getURL(): string };
  loadURL(url: string): Promise<void>;
  loadFile(path: string): Promise<void>;
  once(event: 'ready-to-show', listener: () => void): unknown;
  on(event: 'closed', listener: () => void): unknown;
  show(): void;
  focus(): void;
  close(): void;
  isMinimized(): boolean;
  restore(): void;
}

export type WindowCtor = new (options: BrowserWindowConstructorOptions) => WindowLike;

export interface WindowDeps {
  BrowserWindow: WindowCtor;
  paths: WindowPaths;
  /** the server's origin (`http://127.0.0.1:<port>`), or `null` when it is not running */
  origin(): string | null;
  openExternal(url: string): void;
  /** the first-start page (a local file) */
  setupPage: string;
  /** runs before the app window loads a URL of the server (signs the window in) */
  beforeLoad?(origin: string): Promise<void>;
}

export interface WindowManager {
  /** Shows the app window at `path` (below the server's origin), creating it when needed. */
  showApp(path?: string): Promise<void>;
  /** After a restart: the app window goes to the same path on the new origin. */
  reloadApp(): Promise<void>;
  showSetup(): void;
  closeSetup(): void;
  showQr(html: string): void;
  appIds(): ReadonlySet<number>;
  setupIds(): ReadonlySet<number>;
  /** true while any Pier window is open */
  hasWindows(): boolean;
}

export const createWindowManager = (deps: WindowDeps): WindowManager => {
  /** the app window and the server origin it was made for */
  let appWindow: { win: WindowLike; origin: string } | null = null;
  let setupWindow: WindowLike | null = null;
  const qrWindows = new Set<WindowLike>();
  const appIds = new Set<number>();
  const setupIds = new Set<number>();

  const make = (kind: WindowKind, ids: Set<number> | null, allowedOrigin: () => string | null, origin?: string): WindowLike => {
    const win = new deps.BrowserWindow(windowOptions(kind, deps.paths, origin));
    const id = win.webContents.id;
    ids?.add(id);
    lockNavigation(win.webContents, allowedOrigin, deps.openExternal);
    win.once('ready-to-show', () => win.show());
    win.on('closed', () => ids?.delete(id));
    return win;
  };

  const focus = (win: WindowLike) => {
    if (win.isMinimized()) win.restore();
    win.show();
    win.focus();
  };

  /** The app window for `origin`: the open one when it was made for it, else a new one (replacing the open one). */
  const appWindowFor = (origin: string): { win: WindowLike; created: boolean } => {
    if (appWindow !== null && appWindow.origin === origin) return { win: appWindow.win, created: false };
    const old = appWindow?.win;
    const win = make('app', appIds, deps.origin, origin);
    win.on('closed', () => {
      if (appWindow?.win === win) appWindow = null;
    });
    appWindow = { win, origin };
    old?.close();
    return { win, created: true };
  };

  /** Shows `path` of the server in the app window; nothing while the server is not running. */
  const showAt = async (path: string, focusOpen: boolean) => {
    const origin = deps.origin();
    if (origin === null) return;
    const { win, created } = appWindowFor(origin);
    if (!created && focusOpen) focus(win);
    await deps.beforeLoad?.(origin);
    await win.loadURL(origin + (path.startsWith('/') ? path : `/${path}`));
  };

  return {
    async showApp(path = '/app') {
      await showAt(path, true);
    },
    async reloadApp() {
      if (appWindow === null) return;
      let path = '/app';
      try {
        const u = new URL(appWindow.win.webContents.getURL());
        path = u.pathname + u.search + u.hash;
      } catch {
        /* not loaded yet */
      }
      await showAt(path, false);
    },
    showSetup() {
      if (setupWindow !== null) return focus(setupWindow);
      const win = make('setup', setupIds, () => null);
      win.on('closed', () => {
        if (setupWindow === win) setupWindow = null;
      });
      setupWindow = win;
      void win.loadFile(deps.setupPage);
    },
    closeSetup() {
      setupWindow?.close();
    },
    showQr(html) {
      const win = make('qr', null, () => null);
      qrWindows.add(win);
      win.on('closed', () => qrWindows.delete(win));
      void win.loadURL(`data:text/html;charset=utf-8,${encodeURIComponent(html)}`);
    },
    appIds: () => appIds,
    setupIds: () => setupIds,
    hasWindows: () => appWindow !== null || setupWindow !== null || qrWindows.size > 0,
  };
};

const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The QR window's page: a title, the QR code image and the link as text; no script at all. */
export const qrPage = (title: string, url: string, qrDataUrl: string, note = ''): string => `<!doctype html>
<html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;text-align:center;margin:1.5em;color:#222;background:#fff}
img{width:300px;height:300px}p{word-break:break-all;user-select:text}</style></head>
<body><h1 style="font-size:1.2em">${escapeHtml(title)}</h1>
<img alt="QR code" src="${escapeHtml(qrDataUrl)}">
<p>${escapeHtml(url)}</p>${note === '' ? '' : `<p><small>${escapeHtml(note)}</small></p>`}</body></html>`;
