/** The settings store of the real app: electron-store (`settings.json` in the user-data folder, 0600), passwords through safeStorage. */
import Store from 'electron-store';
import type { SettingsStore } from './desktop-settings.js';
import { settingsFileStore, SETTINGS_STORE_OPTIONS, type SecretBox } from './settings-file.js';

export const electronSettingsStore = (box: SecretBox, warn: (message: string) => void): SettingsStore & { path: string } =>
  settingsFileStore(new Store<Record<string, unknown>>(SETTINGS_STORE_OPTIONS), box, warn);
