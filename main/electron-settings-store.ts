/** The settings store of the real app: electron-store (`settings.json` in the user-data folder). */
import Store from 'electron-store';
import type { DesktopSettings, SettingsStore } from './desktop-settings.js';

export const electronSettingsStore = (): SettingsStore & { path: string } => {
  // A corrupt file is replaced by an empty one; migrateSettings then starts from the defaults.
  const store = new Store<Record<string, unknown>>({ name: 'settings', clearInvalidConfig: true });
  return {
    path: store.path,
    read: () => (store.size === 0 ? undefined : store.store),
    write: (value: DesktopSettings) => {
      store.store = value as unknown as Record<string, unknown>;
    },
  };
};
