/**
 * "Start at login" on Linux: an XDG autostart entry (`$XDG_CONFIG_HOME/autostart/`,
 * by default `~/.config/autostart/`), which GNOME, KDE, Xfce and the others run at
 * login. Windows and macOS use Electron's login items instead.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { HIDDEN_ARG } from './app-args.js';

export const AUTOSTART_FILE = 'pier.desktop';

export const autostartDir = (env: NodeJS.ProcessEnv = process.env): string =>
  join(env['XDG_CONFIG_HOME']?.trim() || join(homedir(), '.config'), 'autostart');

/**
 * A desktop-entry argument as the specification asks: `%` doubled (field codes), and
 * when quoted, `" \` $` escaped, then every backslash escaped again for the file's
 * string syntax. Control characters (a line break would start a new key) are refused.
 */
const quote = (arg: string): string => {
  if ([...arg].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) throw new Error(`Cannot start Pier at login from a path with control characters: ${JSON.stringify(arg)}`);
  const plain = arg.replace(/%/g, '%%');
  if (/^[\w/.:=@+,%-]+$/.test(plain)) return plain;
  return `"${plain.replace(/(["`$\\])/g, '\\$1')}"`.replace(/\\/g, '\\\\');
};

/** The entry that starts `command` (the executable and its arguments) in the tray. */
export const autostartEntry = (command: readonly string[]): string =>
  [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Pier',
    'Comment=Share files from your own computer',
    `Exec=${[...command, HIDDEN_ARG].map(quote).join(' ')}`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');

/** Writes or removes the entry. */
export const setAutostart = (enabled: boolean, command: readonly string[], dir = autostartDir()): void => {
  const file = join(dir, AUTOSTART_FILE);
  if (!enabled) return rmSync(file, { force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, autostartEntry(command), { mode: 0o644 });
};
