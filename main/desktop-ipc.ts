/**
 * The handlers of `window.desktop`'s channels. Every one answers only the desktop
 * settings page of the server in Pier's app window (`desktopPageRule`), and what
 * goes back to the page never holds a stored password (`pageSettings`). The received
 * folder and the extra configuration file may change only to what main/'s own file
 * dialogs returned (or, for the extra file, to none): a page cannot point the server
 * at a folder or a file of its choosing.
 */
import { stat } from 'node:fs/promises';
import type { ServerAddress, SettingsError, SettingsResult } from '../preload/desktop-api.js';
import { pageSettings, type Settings } from './desktop-settings.js';
import { DESKTOP_CHANNELS, desktopPageRule, noArgs, oneArg, type Channel, type ChannelHandler } from './ipc.js';
import { qrData } from './qr.js';

export interface DesktopIpcDeps {
  /** the webContents ids of the app windows */
  appIds(): ReadonlySet<number>;
  /** the server's origin, `null` while it is not running */
  origin(): string | null;
  settings: Settings;
  /** the URL the window's document was loaded from (its last full navigation) */
  documentUrl(webContentsId: number): string | undefined;
  /** the addresses the server answers on (empty while it is not running) */
  addresses(): ServerAddress[];
  pickFolder(): Promise<string | null>;
  pickConfigFile(): Promise<string | null>;
  openPath(path: string): Promise<void>;
}

/** The settings that name a path on this computer, and what to say when a page sends one that was not chosen. */
const CHOSEN_PATHS = ['receivedFolder', 'extraConfigFile'] as const;
const NOT_CHOSEN = 'choose it with the button';

export const desktopHandlers = (deps: DesktopIpcDeps): Partial<Record<Channel, ChannelHandler>> => {
  const rule = desktopPageRule(deps.appIds, deps.origin, deps.documentUrl);
  const D = DESKTOP_CHANNELS;
  /** what each file dialog returned since the app started: a file is never a folder, nor the other way round */
  const chosen = { receivedFolder: new Set<string>(), extraConfigFile: new Set<string>() };
  const remember = (key: keyof typeof chosen, path: string | null) => {
    if (path !== null) chosen[key].add(path);
    return path;
  };
  const setSettings = (patch: unknown): SettingsResult => {
    const current = deps.settings.get();
    const given = (typeof patch === 'object' && patch !== null ? patch : {}) as Record<string, unknown>;
    const errors: SettingsError[] = CHOSEN_PATHS.filter((key) => {
      const value = given[key];
      if (value === undefined || value === current[key] || chosen[key].has(value as string)) return false;
      return !(key === 'extraConfigFile' && value === '');
    }).map((field) => ({ field, message: NOT_CHOSEN }));
    return errors.length > 0 ? { success: false, errors } : deps.settings.update(patch);
  };
  return {
    [D.getSettings]: { rule, check: noArgs, run: () => pageSettings(deps.settings.get()) },
    [D.setSettings]: { rule, check: oneArg('object'), run: setSettings },
    [D.pickFolder]: { rule, check: noArgs, run: async () => remember('receivedFolder', await deps.pickFolder()) },
    [D.pickConfigFile]: { rule, check: noArgs, run: async () => remember('extraConfigFile', await deps.pickConfigFile()) },
    [D.openFolder]: {
      rule,
      check: noArgs,
      // a folder only: the system's opener would run a program
      run: async () => {
        const folder = deps.settings.get().receivedFolder;
        if ((await stat(folder).catch(() => null))?.isDirectory()) await deps.openPath(folder);
      },
    },
    [D.lanAddresses]: { rule, check: noArgs, run: () => deps.addresses() },
    [D.qrData]: { rule, check: oneArg('string'), run: (text) => qrData(text as string) },
  };
};
