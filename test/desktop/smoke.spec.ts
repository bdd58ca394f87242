// Desktop smoke test: launch the real Electron app on a fresh user-data folder, go
// through the first start, see the tray state and the window on the server's /app,
// check that returning to the window does not reload it, and that quitting during an
// upload quits and stops the server.
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { _electron as electron, expect, test } from '@playwright/test';

const root = resolve(import.meta.dirname, '..', '..');

const electronPath = (): string => {
  const path: unknown = createRequire(import.meta.url)('electron');
  if (typeof path !== 'string') throw new Error('the electron package did not give an executable path');
  return path;
};

type Tray = { state(): { server: { kind: string; localUrl?: string }; hasAccount: boolean }; dispatch(a: { type: string }): Promise<void> };

test('launch, first start, tray state, the window shows /app; returning does not reload it; quitting during an upload quits', async () => {
  const userData = mkdtempSync(join(tmpdir(), 'pier-desktop-smoke-'));
  // Chromium refuses to run as root with its sandbox; the renderers keep `sandbox: true`.
  const rootArgs = process.getuid?.() === 0 ? ['--no-sandbox'] : [];
  const app = await electron.launch({
    executablePath: electronPath(),
    // as `npm start` launches it
    args: [...rootArgs, root, `--pier-user-data=${userData}`],
    cwd: root,
  });
  try {
    const setup = await app.firstWindow();
    await expect(setup).toHaveTitle('Welcome to Pier');
    await setup.fill('#login', 'smoke');
    // the folder comes from the app's own dialog: answer it
    const folder = join(userData, 'Received files');
    await app.evaluate(({ dialog }, path) => {
      dialog.showOpenDialog = async () => ({ canceled: false, filePaths: [path] });
    }, folder);
    await setup.click('#pick');
    await expect(setup.locator('#folder')).toHaveValue(folder);
    await setup.click('#submit');
    await expect(setup.locator('#password-shown')).toHaveText(/^[A-Za-z0-9_-]{20}$/);

    const tray = () => app.evaluate(() => (globalThis as unknown as { pierTray: Tray }).pierTray.state());
    const state = await tray();
    expect(state.server.kind).toBe('running');
    expect(state.hasAccount).toBe(true);
    const localUrl = state.server.localUrl!;

    const [main] = await Promise.all([app.waitForEvent('window'), setup.click('#finish')]);
    await main.waitForURL(`${localUrl}/app**`);
    expect(await main.evaluate(() => typeof (window as unknown as { desktop?: { isDesktop: boolean } }).desktop?.isDesktop)).toBe('boolean');
    expect(await main.evaluate(() => typeof (window as unknown as { require?: unknown }).require)).toBe('undefined');

    // returning to the window (tray, second start) keeps the page: no reload
    await main.evaluate(() => Object.assign(window, { pierSmokeMark: 'kept' }));
    await app.evaluate(async () => (globalThis as unknown as { pierTray: Tray }).pierTray.dispatch({ type: 'open-app' }));
    await app.evaluate(({ app: a }) => void a.emit('second-instance', {}, [], ''));
    expect(await main.evaluate(() => (window as unknown as { pierSmokeMark?: string }).pierSmokeMark)).toBe('kept');

    // a page that vetoes its unload, as the web client does during an upload, does not stop a quit
    await main.click('body');
    await main.evaluate(() =>
      window.addEventListener('beforeunload', (e) => {
        e.preventDefault();
        e.returnValue = '';
      }),
    );
    const exited = new Promise<void>((resolve) => app.process().once('exit', () => resolve()));
    await app.evaluate(({ app: a }) => a.quit());
    await Promise.race([exited, new Promise((_, reject) => setTimeout(() => reject(new Error('Pier did not quit within 20 s')), 20_000))]);
    await expect(fetch(`${localUrl}/api/v2/open/info/version`)).rejects.toThrow();
  } finally {
    await app.close().catch(() => undefined);
    rmSync(userData, { recursive: true, force: true });
  }
});
