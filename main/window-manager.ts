/**
 * Pier's windows: one app window (the server's `/app`; a restart on another origin
 * replaces it, as its preload knows one origin), the first-start window, QR windows.
 * It knows the webContents ids of its windows, which the IPC checks use. The
 * BrowserWindow class is passed in, so tests run it with a fake.
 *
 * Returning to the app window (tray, notification, second start) focuses it and
 * navigates only when asked for a different page, so playback and half-filled forms
 * survive; a navigation superseded by a newer one is no error. While a page holds an
 * upload its `beforeunload` vetoes unloading: closing the window asks the user, and
 * quitting (or replacing the window) wins.
 */
import type { BrowserWindowConstructorOptions } from 'electron';
import { lockNavigation, windowOptions, type NavigableContents, type WindowKind, type WindowPaths } from './windows.js';

export interface WindowLike {
  webContents: NavigableContents & {
    id: number;
    getURL(): string;
    on(event: 'will-prevent-unload', listener: (event: { preventDefault(): void }) => void): unknown;
    on(event: 'did-navigate', listener: (event: unknown, url: string) => void): unknown;
  };
  loadURL(url: string): Promise<void>;
  loadFile(path: string): Promise<void>;
  once(event: 'ready-to-show' | 'focus', listener: () => void): unknown;
  on(event: 'closed', listener: () => void): unknown;
  show(): void;
  focus(): void;
  close(): void;
  destroy(): void;
  isDestroyed(): boolean;
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
  /** true once the app is quitting: a page's unload veto is overridden */
  quitting(): boolean;
  /** asks the user whether to close `win` although its page holds work (an upload); true: close */
  confirmClose(win: WindowLike): boolean;
  /** the app window was closed (the app may tell the user where Pier went, or quit) */
  onAppClosed?(): void;
  /** a navigation failed for another reason than being superseded */
  onLoadError?(url: string, error: Error): void;
}

export interface WindowManager {
  /**
   * Shows the app window, creating it when needed (at `path`, default `/app`). An open
   * window is focused, and navigates only when `path` is given and differs from its page.
   */
  showApp(path?: string): Promise<void>;
  /** After a restart on another origin: a new app window at the same path there. */
  reloadApp(): Promise<void>;
  showSetup(): void;
  closeSetup(): void;
  /** A QR window; `onFocus` runs once it has the focus (a Wayland clipboard needs one). */
  showQr(html: string, onFocus?: () => void): void;
  appIds(): ReadonlySet<number>;
  setupIds(): ReadonlySet<number>;
  /** the URL a window's document was loaded from: its last full navigation (not pushState) */
  documentUrl(webContentsId: number): string | undefined;
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
  /** windows being replaced by code, not closed by the user */
  const replacing = new WeakSet<WindowLike>();
  const documents = new Map<number, string>();

  const make = (kind: WindowKind, ids: Set<number> | null, allowedOrigin: () => string | null, origin?: string): WindowLike => {
    const win = new deps.BrowserWindow(windowOptions(kind, deps.paths, origin));
    const id = win.webContents.id;
    ids?.add(id);
    lockNavigation(win.webContents, allowedOrigin, deps.openExternal);
    // the page vetoes its unload (an upload runs): quitting and replacing win, closing asks
    win.webContents.on('will-prevent-unload', (event) => {
      if (deps.quitting() || replacing.has(win) || deps.confirmClose(win)) event.preventDefault();
    });
    win.webContents.on('did-navigate', (_event, url) => documents.set(id, url));
    win.once('ready-to-show', () => win.show());
    win.on('closed', () => {
      ids?.delete(id);
      documents.delete(id);
    });
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
      if (appWindow?.win !== win) return;
      appWindow = null;
      deps.onAppClosed?.();
    });
    appWindow = { win, origin };
    if (old) {
      replacing.add(old);
      old.close();
    }
    return { win, created: true };
  };

  /** The page the app window shows (path, query, fragment), `null` before it loaded one. */
  const pageOf = (win: WindowLike): string | null => {
    try {
      const u = new URL(win.webContents.getURL());
      return u.pathname + u.search + u.hash;
    } catch {
      return null;
    }
  };

  /** Loads `path` of `origin`; a load superseded by a newer one is not an error. */
  const load = async (win: WindowLike, origin: string, path: string) => {
    const url = origin + (path.startsWith('/') ? path : `/${path}`);
    await deps.beforeLoad?.(origin);
    try {
      await win.loadURL(url);
    } catch (e) {
      if ((e as { code?: unknown }).code === 'ERR_ABORTED') return;
      deps.onLoadError?.(url, e instanceof Error ? e : new Error(String(e)));
    }
  };

  return {
    async showApp(path) {
      const origin = deps.origin();
      if (origin === null) return;
      const { win, created } = appWindowFor(origin);
      if (created) return load(win, origin, path ?? '/app');
      focus(win);
      const page = pageOf(win);
      if (path !== undefined && page !== null && page !== path) await load(win, origin, path);
    },
    async reloadApp() {
      const origin = deps.origin();
      if (appWindow === null || origin === null || appWindow.origin === origin) return;
      const path = pageOf(appWindow.win) ?? '/app';
      const { win } = appWindowFor(origin);
      await load(win, origin, path);
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
    showQr(html, onFocus) {
      const win = make('qr', null, () => null);
      if (onFocus) win.once('focus', onFocus);
      qrWindows.add(win);
      win.on('closed', () => qrWindows.delete(win));
      void win.loadURL(`data:text/html;charset=utf-8,${encodeURIComponent(html)}`);
    },
    appIds: () => appIds,
    setupIds: () => setupIds,
    documentUrl: (id) => documents.get(id),
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
