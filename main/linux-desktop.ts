/**
 * What a Linux desktop offers Pier: a host for its tray icon (StatusNotifierItem:
 * KDE, Xfce, Cinnamon, GNOME only with the AppIndicator extension), and whether the
 * session is Wayland, where the clipboard takes text only from a focused window.
 */
import { execFile } from 'node:child_process';

/** The D-Bus name of the StatusNotifierItem host that shows tray icons. */
export const TRAY_HOST_NAME = 'org.kde.StatusNotifierWatcher';

/**
 * True when a tray host runs in the session bus; asked with `dbus-send` (part of
 * every desktop's D-Bus), bounded at 2 s. Unknown (no dbus-send, no bus) counts as
 * none: Pier then must not hide in a tray nobody sees.
 */
export const hasTrayHost = (env: NodeJS.ProcessEnv = process.env): Promise<boolean> =>
  new Promise((resolve) => {
    execFile(
      'dbus-send',
      ['--session', '--print-reply', '--dest=org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus.NameHasOwner', `string:${TRAY_HOST_NAME}`],
      { timeout: 2_000, env },
      (error, stdout) => resolve(!error && /boolean true/.test(String(stdout))),
    );
  });

export const isWayland = (env: NodeJS.ProcessEnv = process.env): boolean =>
  env['XDG_SESSION_TYPE'] === 'wayland' || (env['WAYLAND_DISPLAY'] ?? '') !== '';
