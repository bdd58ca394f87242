/**
 * What the command line and the way Pier was started say: the user-data folder of
 * `--pier-user-data=<dir>` (relative to where Pier was started), and whether to start
 * in the tray without a window (started at login).
 */
import { resolve } from 'node:path';

/** Passed by the login item (Windows) and the autostart entry (Linux). */
export const HIDDEN_ARG = '--hidden';
/** `--pier-user-data=<dir>`: another user-data folder (a portable install, the desktop smoke test). */
export const USER_DATA_ARG = '--pier-user-data=';

/** The user-data folder the arguments ask for, absolute; `null` when they ask for none. */
export const userDataArg = (argv: readonly string[], cwd: string): string | null => {
  const arg = argv.find((a) => a.startsWith(USER_DATA_ARG));
  const dir = arg?.slice(USER_DATA_ARG.length) ?? '';
  return dir === '' ? null : resolve(cwd, dir);
};

/**
 * True when Pier was started at login and should stay in the tray. macOS starts a
 * login item without arguments and says so through `wasOpenedAtLogin`; Windows and
 * Linux pass `--hidden`.
 */
export const startedAtLogin = (platform: NodeJS.Platform, argv: readonly string[], wasOpenedAtLogin: () => boolean): boolean =>
  platform === 'darwin' ? wasOpenedAtLogin() : argv.includes(HIDDEN_ARG);
