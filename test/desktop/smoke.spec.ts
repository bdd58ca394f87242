// Desktop smoke test: launch the real Electron app on a fresh user-data folder, go
// through the first start, see the tray state and the window on the server's /app,
// and check that quitting stops the server.
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { _electron as electron, expect, test } from '@playwright/test';
import { SERVER_NODE_FLAGS } from '../../server/process/flags.js';

const root = resolve(import.meta.dirname, '..', '..');

const electronPath = (): string => {
  const path: unknown = createRequire(import.meta.url)('electron');
  if (typeof path !== 'string') throw new Error('the electron package did not give an executable path');
  return path;
};

test('launch, first start, tray state, the window shows /app, quit stops the server', async () => {
  const userData = mkdtempSync(join(tmpdir(), 'pier-desktop-smoke-'));
  // Chromium refuses to run as root with its sandbox; the renderers keep `sandbox: true`.
  const rootArgs = process.getuid?.() === 0 ? ['--no-sandbox'] : [];
  const app = await electron.launch({
    executablePath: electronPath(),
    // as `npm start` launches it
    args: [...rootArgs, `--js-flags=${SERVER_NODE_FLAGS.join(' ')}`, root, `--pier-user-data=${userData}`],
    cwd: root,
  });
  try {
    const setup = await app.firstWindow();
    await expect(setup).toHaveTitle('Welcome to Pier');
    await setup.fill('#login', 'smoke');
    await setup.fill('#folder', join(userData, 'Received files'));
    await setup.click('#submit');
    await expect(setup.locator('#password-shown')).toHaveText(/^[A-Za-z0-9_-]{20}$/);

    const state = await app.evaluate(() => (globalThis as unknown as { pierTray: { state(): { server: { kind: string; localUrl?: string }; hasAccount: boolean } } }).pierTray.state());
    expect(state.server.kind).toBe('running');
    expect(state.hasAccount).toBe(true);
    const localUrl = state.server.localUrl!;

    const [main] = await Promise.all([app.waitForEvent('window'), setup.click('#finish')]);
    await main.waitForURL(`${localUrl}/app**`);
    expect(await main.evaluate(() => typeof (window as unknown as { desktop?: { isDesktop: boolean } }).desktop?.isDesktop)).toBe('boolean');
    expect(await main.evaluate(() => typeof (window as unknown as { require?: unknown }).require)).toBe('undefined');

    await app.close();
    await expect(fetch(`${localUrl}/api/v2/open/info/version`)).rejects.toThrow();
  } finally {
    await app.close().catch(() => undefined);
    rmSync(userData, { recursive: true, force: true });
  }
});
