// settings.json holds the SMTP and music-player passwords and was written with the
// umask's mode (0644 as a rule): readable by every local user. It is written 0600,
// and a file an older version left readable is made private when Pier opens it.
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Conf from 'conf';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../../main/desktop-settings.js';
import { settingsFileStore, SETTINGS_STORE_OPTIONS } from '../../../main/settings-file.js';

/**
 * The store main/ uses, on conf: electron-store is conf with the user-data folder as
 * `cwd` and `name` as `configName`, and cannot be loaded without Electron.
 */
const electronSettingsStore = ({ cwd }: { cwd: string }) => {
  const { name, ...options } = SETTINGS_STORE_OPTIONS;
  return settingsFileStore(new Conf<Record<string, unknown>>({ ...options, configName: name, cwd }));
};

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const mode = (p: string) => statSync(p).mode & 0o777;

describe.runIf(process.platform !== 'win32')('settings.json', () => {
  it('is written 0600, whatever the umask', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pier-settings-'));
    dirs.push(dir);
    const umask = process.umask(0);
    try {
      const store = electronSettingsStore({ cwd: dir });
      store.write({ ...defaultSettings(), mail: { ...defaultSettings().mail, password: 'smtp-secret' } });
      expect(store.path).toBe(join(dir, 'settings.json'));
      expect(mode(store.path)).toBe(0o600);
      expect(store.read()).toMatchObject({ mail: { password: 'smtp-secret' } });
    } finally {
      process.umask(umask);
    }
  });

  it('left readable by an older version, is made 0600 when opened', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pier-settings-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'settings.json'), JSON.stringify({ version: 1, port: 8081 }));
    chmodSync(join(dir, 'settings.json'), 0o644);
    const store = electronSettingsStore({ cwd: dir });
    expect(mode(store.path)).toBe(0o600);
    expect(store.read()).toMatchObject({ port: 8081 });
  });
});
