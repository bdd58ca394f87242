import { describe, expect, it } from 'vitest';
import { lanIPv4, lanUrl, serverAddresses, type Interfaces } from '../../../main/network.js';
import { qrData } from '../../../main/qr.js';
import { createWindowManager, qrPage, type WindowDeps } from '../../../main/window-manager.js';
import { lockNavigation, navigationPolicy, windowOptions, type WindowKind } from '../../../main/windows.js';
import { FakeBrowserWindow, FakeWebContents } from '../../support/fake-electron.js';

const paths = { appPreload: '/app/dist/preload/index.js', setupPreload: '/app/dist/preload/setup.js', icon: '/app/resources/icon.png', version: '0.1.0' };

describe('window options', () => {
  it.each<WindowKind>(['app', 'setup', 'qr'])('%s: context isolation, sandbox, no Node, no webview', (kind) => {
    const w = windowOptions(kind, paths).webPreferences!;
    expect(w).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
    });
  });

  it('only the app and first-start windows get a preload; the app preload is told the server’s origin', () => {
    expect(windowOptions('app', paths, 'http://127.0.0.1:9090').webPreferences).toMatchObject({
      preload: paths.appPreload,
      additionalArguments: ['--pier-version=0.1.0', '--pier-origin=http://127.0.0.1:9090'],
    });
    expect(windowOptions('setup', paths).webPreferences?.preload).toBe(paths.setupPreload);
    expect(windowOptions('qr', paths).webPreferences).not.toHaveProperty('preload');
  });
});

describe('navigation lock', () => {
  const origin = 'http://127.0.0.1:9090';

  it('allows the server origin, sends web and mail links to the browser, drops the rest', () => {
    expect(navigationPolicy(origin, `${origin}/app/home`)).toBe('allow');
    expect(navigationPolicy(origin, 'http://127.0.0.1:9091/app')).toBe('external');
    expect(navigationPolicy(origin, 'https://example.org/')).toBe('external');
    expect(navigationPolicy(origin, 'mailto:a@b.c')).toBe('external');
    expect(navigationPolicy(origin, 'file:///etc/passwd')).toBe('deny');
    expect(navigationPolicy(origin, 'javascript:alert(1)')).toBe('deny');
    expect(navigationPolicy(origin, 'smb://host/share')).toBe('deny');
    expect(navigationPolicy(null, `${origin}/app`)).toBe('external');
  });

  it('is wired to will-navigate, will-redirect, webviews and window.open', () => {
    const wc = new FakeWebContents();
    const external: string[] = [];
    let current: string | null = origin;
    lockNavigation(wc, () => current, (u) => external.push(u));
    expect(wc.emitNavigation('will-navigate', `${origin}/app/share`)).toBe(false);
    expect(wc.emitNavigation('will-navigate', 'https://example.org/doc')).toBe(true);
    expect(wc.emitNavigation('will-redirect', 'file:///etc/passwd')).toBe(true);
    expect(wc.emitNavigation('will-attach-webview', 'x')).toBe(true);
    expect(wc.openHandler!({ url: 'https://example.org/new' })).toEqual({ action: 'deny' });
    expect(wc.openHandler!({ url: 'file:///x' })).toEqual({ action: 'deny' });
    // after a restart on another port, the lock follows
    current = 'http://127.0.0.1:9999';
    expect(wc.emitNavigation('will-navigate', `${origin}/app`)).toBe(true);
    expect(external).toEqual(['https://example.org/doc', 'https://example.org/new', `${origin}/app`]);
  });
});

describe('window manager', () => {
  const make = (origin: () => string | null, over: Partial<WindowDeps> = {}) => {
    FakeBrowserWindow.created = [];
    const signedIn: string[] = [];
    const wm = createWindowManager({
      BrowserWindow: FakeBrowserWindow,
      paths,
      origin,
      openExternal: () => undefined,
      setupPage: '/app/resources/setup/index.html',
      beforeLoad: async (o) => void signedIn.push(o),
      quitting: () => false,
      confirmClose: () => true,
      ...over,
    });
    return { wm, signedIn };
  };

  it('opens one app window on the server’s /app, locked and tracked for IPC; returning focuses it without reloading', async () => {
    const origin = 'http://127.0.0.1:9090';
    const { wm, signedIn } = make(() => origin);
    await wm.showApp();
    const w = FakeBrowserWindow.created[0]!;
    expect(w.webContents.documents).toBe(1);
    // tray, notification, second start, macOS activate: the same page, not a new one
    await wm.showApp();
    await wm.showApp('/app');
    expect(FakeBrowserWindow.created).toHaveLength(1);
    expect(w.webContents.documents).toBe(1);
    expect(w.focused).toBe(2);
    // a different page is navigated to
    await wm.showApp('/app/desktop');
    expect(w.loaded).toEqual(['http://127.0.0.1:9090/app', 'http://127.0.0.1:9090/app/desktop']);
    expect(w.webContents.listeners.has('will-navigate')).toBe(true);
    expect(w.options.webPreferences?.sandbox).toBe(true);
    expect(wm.appIds().has(w.webContents.id)).toBe(true);
    expect(signedIn).toEqual([origin, origin]);
    expect(wm.documentUrl(w.webContents.id)).toBe('http://127.0.0.1:9090/app/desktop');

    // a restart on the same origin keeps the page
    await wm.reloadApp();
    expect(FakeBrowserWindow.created).toHaveLength(1);
    expect(w.webContents.documents).toBe(2);

    w.close();
    expect(wm.appIds().size).toBe(0);
    expect(wm.hasWindows()).toBe(false);
  });

  it('a navigation superseded by a newer one is no error', async () => {
    const errors: string[] = [];
    const { wm } = make(() => 'http://127.0.0.1:9090', { onLoadError: (url) => errors.push(url) });
    await wm.showApp();
    const w = FakeBrowserWindow.created[0]!;
    await Promise.all([wm.showApp('/app/upload/a'), wm.showApp('/app/upload/b')]);
    expect(w.webContents.getURL()).toBe('http://127.0.0.1:9090/app/upload/b');
    expect(errors).toEqual([]);
  });

  it('closing the window while its page holds an upload asks the user: stay keeps it, close closes it', async () => {
    let answer = false;
    const asked: number[] = [];
    const { wm } = make(() => 'http://127.0.0.1:9090', {
      confirmClose: (win) => {
        asked.push(win.webContents.id);
        return answer;
      },
    });
    await wm.showApp();
    const w = FakeBrowserWindow.created[0]!;
    w.webContents.preventsUnload = true;
    w.close();
    expect(asked).toEqual([w.webContents.id]);
    expect(w.closed).toBe(false);
    answer = true;
    w.close();
    expect(w.closed).toBe(true);
  });

  it('quitting wins over a page that holds an upload, without asking', async () => {
    let quitting = false;
    const asked: number[] = [];
    const { wm } = make(() => 'http://127.0.0.1:9090', {
      quitting: () => quitting,
      confirmClose: (win) => {
        asked.push(win.webContents.id);
        return false;
      },
    });
    await wm.showApp();
    const w = FakeBrowserWindow.created[0]!;
    w.webContents.preventsUnload = true;
    quitting = true;
    w.close();
    expect(w.closed).toBe(true);
    expect(asked).toEqual([]);
  });

  // The app window's preload learns the server's origin once, when the window is
  // created (`window.desktop` works only there).
  it('replaces the app window when the server’s origin changes, at the same path, even during an upload', async () => {
    let origin = 'http://127.0.0.1:9090';
    const { wm } = make(() => origin);
    await wm.showApp();
    await wm.showApp('/app/desktop');
    const first = FakeBrowserWindow.created[0]!;
    expect(first.options.webPreferences?.additionalArguments).toContain('--pier-origin=http://127.0.0.1:9090');
    first.webContents.preventsUnload = true;

    origin = 'http://127.0.0.1:9191';
    await wm.reloadApp();
    expect(first.closed).toBe(true);
    expect(FakeBrowserWindow.created).toHaveLength(2);
    const second = FakeBrowserWindow.created[1]!;
    expect(second.options.webPreferences?.additionalArguments).toContain('--pier-origin=http://127.0.0.1:9191');
    expect(second.loaded).toEqual(['http://127.0.0.1:9191/app/desktop']);
    expect([...wm.appIds()]).toEqual([second.webContents.id]);
    expect(wm.hasWindows()).toBe(true);

    await wm.showApp('/app/home');
    expect(FakeBrowserWindow.created).toHaveLength(2);
    expect(second.loaded.at(-1)).toBe('http://127.0.0.1:9191/app/home');
  });

  it('opens no app window while the server is not running', async () => {
    const { wm } = make(() => null);
    await wm.showApp();
    expect(FakeBrowserWindow.created).toHaveLength(0);
    expect(wm.hasWindows()).toBe(false);
  });

  it('the first-start window loads the local page and is tracked separately; QR windows have no preload', () => {
    const { wm } = make(() => null);
    wm.showSetup();
    const s = FakeBrowserWindow.created[0]!;
    expect(s.loaded).toEqual(['file:///app/resources/setup/index.html']);
    expect(wm.setupIds().has(s.webContents.id)).toBe(true);
    expect(wm.appIds().size).toBe(0);
    wm.closeSetup();
    expect(wm.setupIds().size).toBe(0);
    wm.showQr('<p>x</p>');
    const q = FakeBrowserWindow.created[1]!;
    expect(q.loaded[0]).toBe('data:text/html;charset=utf-8,%3Cp%3Ex%3C%2Fp%3E');
    expect(q.options.webPreferences).not.toHaveProperty('preload');
  });

  it('the QR page escapes what it shows and allows no script', async () => {
    const html = qrPage('<b>"x"</b>', 'http://h/app/share/a&b', (await qrData('http://h')).dataUrl);
    expect(html).toContain('&lt;b&gt;&quot;x&quot;&lt;/b&gt;');
    expect(html).toContain('http://h/app/share/a&amp;b');
    expect(html).toContain("default-src 'none'");
    expect(html).not.toContain('<script');
  });
});

describe('LAN addresses', () => {
  const ifaces: Interfaces = {
    lo: [{ address: '127.0.0.1', netmask: '255.0.0.0', family: 'IPv4', mac: '00', internal: true, cidr: null }],
    eth0: [
      { address: '192.168.1.20', netmask: '255.255.255.0', family: 'IPv4', mac: '01', internal: false, cidr: null },
      { address: 'fe80::1', netmask: 'ffff::', family: 'IPv6', mac: '01', internal: false, cidr: null, scopeid: 1 },
    ],
    docker0: [{ address: '169.254.3.4', netmask: '255.255.0.0', family: 'IPv4', mac: '02', internal: false, cidr: null }],
    wlan0: [
      { address: '10.0.0.5', netmask: '255.0.0.0', family: 'IPv4', mac: '03', internal: false, cidr: null },
      { address: '192.168.1.20', netmask: '255.255.255.0', family: 'IPv4', mac: '03', internal: false, cidr: null },
    ],
  };

  it('lists IPv4, non-internal, non-link-local addresses once each', () => {
    expect(lanIPv4(ifaces)).toEqual([
      { name: 'eth0', address: '192.168.1.20' },
      { name: 'wlan0', address: '10.0.0.5' },
    ]);
  });

  it('gives this computer first, and the LAN addresses only when listening on the LAN', () => {
    expect(serverAddresses(9090, true, ifaces).map((a) => a.url)).toEqual(['http://127.0.0.1:9090', 'http://192.168.1.20:9090', 'http://10.0.0.5:9090']);
    expect(serverAddresses(9090, false, ifaces)).toEqual([{ name: 'localhost', url: 'http://127.0.0.1:9090' }]);
    expect(lanUrl(9090, true, ifaces)).toBe('http://192.168.1.20:9090');
    expect(lanUrl(9090, true, {})).toBeNull();
    expect(lanUrl(9090, false, ifaces)).toBeNull();
  });

  it('reads the real interfaces of this machine without failing', () => {
    for (const a of lanIPv4()) expect(a.address).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
  });
});

describe('QR codes', () => {
  it('are SVG, generated locally, also as a data URL', async () => {
    const q = await qrData('http://192.168.1.20:9090/app');
    expect(q.svg).toMatch(/^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(Buffer.from(q.dataUrl.split(',')[1]!, 'base64').toString('utf8')).toBe(q.svg);
    await expect(qrData('')).rejects.toThrow();
    await expect(qrData('x'.repeat(2001))).rejects.toThrow();
  });
});
