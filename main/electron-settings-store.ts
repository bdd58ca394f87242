/** The settings store of the real app: electron-store (`settings.json` in the user-data folder, 0600). */
import Store from 'electron-store';
import type { SettingsStore } from './desktop-settings.js';
import { settingsFileStore, SETTINGS_STORE_OPTIONS } from './settings-file.js';

export const electronSettingsStore = (): SettingsStore & { path: string } =>
  settingsFileStore(new Store<Record<string, unknown>>(SETTINGS_STORE_OPTIONS));
