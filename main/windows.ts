/**
 * Window options and the navigation lock. Every Pier window is sandboxed with context
 * isolation and no Node; the app windows stay on the server's origin, and links
 * elsewhere open in the system browser (web and mail links only).
 */
import type { BrowserWindowConstructorOptions } from 'electron';

export type WindowKind = 'app' | 'setup' | 'qr';

export interface WindowPaths {
  /** preload of the app windows (`window.desktop`) */
  appPreload: string;
  /** preload of the first-start window (`window.pierSetup`) */
  setupPreload: string;
  icon: string;
  version: string;
}

/** Read by preload/index.ts, which cannot ask `app` for the version itself. */
export const VERSION_ARG = '--pier-version=';
/** The server's origin when the app window was created; preload/index.ts gives `window.desktop` to that origin only. */
export const ORIGIN_ARG = '--pier-origin=';

const SIZES: Record<WindowKind, { width: number; height: number; title: string }> = {
  app: { width: 1200, height: 800, title: 'Pier' },
  setup: { width: 640, height: 720, title: 'Welcome to Pier' },
  qr: { width: 420, height: 520, title: 'QR code' },
};

/**
 * The options of a window of `kind`. Only app and setup windows get a preload; the QR
 * window is a static page. An app window is made for one server `origin`, which its
 * preload is told (a different origin needs a new window).
 */
export const windowOptions = (kind: WindowKind, paths: WindowPaths, origin = ''): BrowserWindowConstructorOptions => {
  const { width, height, title } = SIZES[kind];
  const preload = kind === 'app' ? paths.appPreload : kind === 'setup' ? paths.setupPreload : undefined;
  return {
    width,
    height,
    title,
    icon: paths.icon,
    show: false,
    autoHideMenuBar: true,
    ...(kind === 'app' ? {} : { resizable: kind === 'setup', minimizable: kind !== 'qr', maximizable: false }),
    webPreferences: {
      ...(preload ? { preload } : {}),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      navigateOnDragDrop: false,
      ...(kind === 'app' ? { additionalArguments: [`${VERSION_ARG}${paths.version}`, `${ORIGIN_ARG}${origin}`] } : {}),
    },
  };
};

export const originOf = (url: string): string | null => {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
};

/** What to do with a navigation to `url` from a window locked to `allowedOrigin`. */
export const navigationPolicy = (allowedOrigin: string | null, url: string): 'allow' | 'external' | 'deny' => {
  if (allowedOrigin !== null && originOf(url) === allowedOrigin) return 'allow';
  return /^(https?:|mailto:)/i.test(url) ? 'external' : 'deny';
};

/** The parts of Electron's WebContents the lock uses (a fake implements them in tests). */
export interface NavigableContents {
  on(event: 'will-navigate', listener: (event: { preventDefault(): void }, url: string) => void): unknown;
  on(event: 'will-redirect', listener: (event: { preventDefault(): void }, url: string) => void): unknown;
  on(event: 'will-attach-webview', listener: (event: { preventDefault(): void }) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
}

/**
 * Keeps `contents` on the origin `allowedOrigin()` returns (read at each navigation,
 * as a restart may change the port; `null` allows nothing). Other web and mail links
 * go to `openExternal`; anything else (file:, custom schemes) is dropped. New windows
 * are never opened by pages.
 */
export const lockNavigation = (
  contents: NavigableContents,
  allowedOrigin: () => string | null,
  openExternal: (url: string) => void,
): void => {
  const guard = (event: { preventDefault(): void }, url: string) => {
    const policy = navigationPolicy(allowedOrigin(), url);
    if (policy === 'allow') return;
    event.preventDefault();
    if (policy === 'external') openExternal(url);
  };
  contents.on('will-navigate', guard);
  contents.on('will-redirect', guard);
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (navigationPolicy(null, url) === 'external') openExternal(url);
    return { action: 'deny' };
  });
};
