/**
 * The handlers of `window.desktop`'s channels. Every one answers only the desktop
 * settings page of the server in Pier's app window (`desktopPageRule`), and what
 * goes back to the page never holds a stored password (`pageSettings`).
 */
import type { ServerAddress } from '../preload/desktop-api.js';
import { pageSettings, type Settings } from './desktop-settings.js';
import { DESKTOP_CHANNELS, desktopPageRule, noArgs, oneArg, type Channel, type ChannelHandler } from './ipc.js';
import { qrData } from './qr.js';

export interface DesktopIpcDeps {
  /** the webContents ids of the app windows */
  appIds(): ReadonlySet<number>;
  /** the server's origin, `null` while it is not running */
  origin(): string | null;
  settings: Settings;
  /** the addresses the server answers on (empty while it is not running) */
  addresses(): ServerAddress[];
  pickFolder(): Promise<string | null>;
  openPath(path: string): Promise<void>;
}

export const desktopHandlers = (deps: DesktopIpcDeps): Partial<Record<Channel, ChannelHandler>> => {
  const rule = desktopPageRule(deps.appIds, deps.origin);
  const D = DESKTOP_CHANNELS;
  return {
    [D.getSettings]: { rule, check: noArgs, run: () => pageSettings(deps.settings.get()) },
    [D.setSettings]: { rule, check: oneArg('object'), run: (patch) => deps.settings.update(patch) },
    [D.pickFolder]: { rule, check: noArgs, run: () => deps.pickFolder() },
    [D.openFolder]: { rule, check: noArgs, run: () => deps.openPath(deps.settings.get().receivedFolder) },
    [D.lanAddresses]: { rule, check: noArgs, run: () => deps.addresses() },
    [D.qrData]: { rule, check: oneArg('string'), run: (text) => qrData(text as string) },
  };
};
