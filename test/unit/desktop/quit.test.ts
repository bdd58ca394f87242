// Quitting with the real server in a child process and a fake of Electron's quit
// sequence (windows can veto, `before-quit` can be cancelled).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../../main/desktop-settings.js';
import { setupQuit } from '../../../main/lifecycle.js';
import { createServerHost } from '../../../main/server-host.js';
import { createWindowManager } from '../../../main/window-manager.js';
import { projectRoot } from '../../support/cli-run.js';
import { FakeApp, FakeBrowserWindow } from '../../support/fake-electron.js';
import { forkAsUtility, forked } from '../../support/utility-process.js';

const ENTRY = join(projectRoot, 'dist/server/cli.js');
let dir: string;

beforeAll(() => {
  if (!existsSync(ENTRY)) throw new Error('dist/server/cli.js is missing: run `npm run build:server` (npm test does).');
});
afterEach(() => {
  for (const p of forked.splice(0)) if (p.pid !== undefined) process.kill(p.pid, 'SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

describe('quitting', () => {
  it('quits during an upload in the window: the server stops, the window closes, the app quits', async () => {
    dir = mkdtempSync(join(tmpdir(), 'pier-quit-'));
    const host = createServerHost({ fork: forkAsUtility, entry: ENTRY, dataDir: join(dir, 'data'), env: { PATH: process.env['PATH'] ?? '' } });
    FakeBrowserWindow.created = [];
    const app = new FakeApp(() => FakeBrowserWindow.created.filter((w) => !w.closed));
    const quit = setupQuit(app, host);
    const asked: number[] = [];
    const state = await host.start({ ...defaultSettings(), port: 0, lan: false, receivedFolder: join(dir, 'Received') });
    if (state.kind !== 'running') throw new Error(JSON.stringify(state));
    const wm = createWindowManager({
      BrowserWindow: FakeBrowserWindow,
      paths: { appPreload: '', setupPreload: '', icon: '', version: '0' },
      origin: () => state.localUrl,
      openExternal: () => undefined,
      setupPage: '/setup.html',
      quitting: quit.quitting,
      confirmClose: (w) => {
        asked.push(w.webContents.id);
        return false;
      },
    });
    await wm.showApp();
    FakeBrowserWindow.created[0]!.webContents.preventsUnload = true;

    app.quit();
    await expect.poll(() => app.quitted, { timeout: 15_000 }).toBe(true);
    expect(host.state().kind).toBe('stopped');
    expect(FakeBrowserWindow.created[0]!.closed).toBe(true);
    expect(asked).toEqual([]);
    await expect(fetch(`${state.localUrl}/api/v2/open/info/version`)).rejects.toThrow();
  });
});
