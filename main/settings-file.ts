/**
 * settings.json, the desktop settings on disk (electron-store in the app). It holds
 * the SMTP and music-player passwords, so it is the user's alone: written 0600
 * whatever the umask, and a file an older version left readable is made 0600 when it
 * is opened. Plain Node: electron-store is passed in (index.ts), conf in tests.
 */
import { chmodSync } from 'node:fs';
import type { DesktopSettings, SettingsStore } from './desktop-settings.js';

export const SETTINGS_FILE_MODE = 0o600;

/** The electron-store options of settings.json (conf's, with `name` for `configName`). */
export const SETTINGS_STORE_OPTIONS = {
  name: 'settings',
  // A corrupt file is replaced by an empty one; migrateSettings then starts from the defaults.
  clearInvalidConfig: true,
  configFileMode: SETTINGS_FILE_MODE,
} as const;

/** What is used of an electron-store (or conf) instance. */
export interface JsonFileStore {
  readonly path: string;
  readonly size: number;
  store: Record<string, unknown>;
}

/** The settings store over `file`, whose file is made private first. */
export const settingsFileStore = (file: JsonFileStore): SettingsStore & { path: string } => {
  makePrivate(file.path);
  return {
    path: file.path,
    read: () => (file.size === 0 ? undefined : file.store),
    write: (value: DesktopSettings) => {
      file.store = value as unknown as Record<string, unknown>;
    },
  };
};

const makePrivate = (path: string): void => {
  // Windows has no POSIX modes; the user-data folder is private through its ACL
  if (process.platform === 'win32') return;
  try {
    chmodSync(path, SETTINGS_FILE_MODE);
  } catch (e) {
    // not written yet: conf creates it with SETTINGS_FILE_MODE
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
};
