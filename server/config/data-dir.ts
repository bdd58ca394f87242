/**
 * The data directory: its default (the user's own data folder, never a shared
 * place such as the temp dir), its creation (0700) and the start-up check that
 * no other local user owns it or can write to it. Files Pier keeps in it are
 * checked where they are read (`secret.ts`).
 *
 * Ownership and modes are POSIX notions: on Windows (no POSIX modes; the user's
 * profile folders are private through their ACLs) nothing is checked.
 */
import type { Stats } from 'node:fs';
import { chmod, mkdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { posix, win32 } from 'node:path';
import type { Env } from './env.js';

/** Owner-only directories and files, whatever the process umask. */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Where Pier keeps its data when `data-dir` is not configured: the user's data
 * folder, `$XDG_DATA_HOME/pier` (an absolute `XDG_DATA_HOME` only, as the XDG spec
 * says; else `~/.local/share/pier`) on Linux and other Unixes,
 * `~/Library/Application Support/Pier` on macOS, `%LOCALAPPDATA%\Pier` on Windows.
 * `env` is the environment the configuration is loaded with; the home directory
 * comes from it (`HOME`, `USERPROFILE`) or else from the OS.
 */
export const defaultDataDir = (env: Env, platform: NodeJS.Platform = process.platform): string => {
  const given = (name: string): string | undefined => {
    const v = env[name]?.trim();
    return v === undefined || v === '' ? undefined : v;
  };
  if (platform === 'win32') {
    const local = given('LOCALAPPDATA') ?? win32.join(given('USERPROFILE') ?? homedir(), 'AppData', 'Local');
    return win32.join(local, 'Pier');
  }
  const home = given('HOME') ?? homedir();
  if (platform === 'darwin') return posix.join(home, 'Library', 'Application Support', 'Pier');
  const xdg = given('XDG_DATA_HOME');
  return posix.join(xdg !== undefined && posix.isAbsolute(xdg) ? xdg : posix.join(home, '.local', 'share'), 'pier');
};

/** True where owners and modes mean something (everywhere but Windows). */
export const hasPosixModes = (platform: NodeJS.Platform = process.platform): boolean =>
  platform !== 'win32' && typeof process.getuid === 'function';

const octal = (m: number): string => (m & 0o7777).toString(8).padStart(4, '0');

/**
 * Why `path` (described by `st`) may not be trusted: it belongs to another user,
 * or group or others can write to it (then another user could have put or
 * replaced what Pier reads there). `undefined` when it is fine. POSIX only.
 */
export const untrusted = (path: string, st: Stats): string | undefined => {
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid)
    return `${path} belongs to another user (uid ${st.uid}), not to the user running Pier (uid ${uid})`;
  if ((st.mode & 0o022) !== 0) return `${path} can be written by group or others (mode ${octal(st.mode)})`;
  return undefined;
};

/**
 * Creates `dir` when it is missing (mode 0700; its missing parents with the
 * usual mode) and checks that it is a directory of this user that no one else
 * can write to. Throws an `Error` saying what is wrong and what to do.
 */
export const prepareDataDir = async (dir: string, platform: NodeJS.Platform = process.platform): Promise<void> => {
  const parent = platform === 'win32' ? win32.dirname(dir) : posix.dirname(dir);
  await mkdir(parent, { recursive: true });
  let created = false;
  try {
    await mkdir(dir, { mode: PRIVATE_DIR_MODE });
    created = true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  // the umask may have taken bits away from the mode given to mkdir
  if (created && hasPosixModes(platform)) await chmod(dir, PRIVATE_DIR_MODE);
  const st = await stat(dir);
  if (!st.isDirectory()) throw new Error(`${dir} is not a directory`);
  if (!hasPosixModes(platform)) return;
  const why = untrusted(dir, st);
  if (why !== undefined)
    throw new Error(
      `${why}; another user could plant or read Pier's secret, database and files there. ` +
        `Use a directory of your own that only you can write to (chmod 700 ${dir}), or set data-dir to another one`,
    );
};
