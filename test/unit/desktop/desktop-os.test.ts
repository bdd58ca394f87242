// What the desktop app reads from its command line and writes to the system: the
// user-data argument, start at login, the Linux autostart entry, the rotated log.
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HIDDEN_ARG, startedAtLogin, userDataArg } from '../../../main/app-args.js';
import { AUTOSTART_FILE, autostartDir, autostartEntry, setAutostart } from '../../../main/autostart.js';
import { hasTrayHost, isWayland } from '../../../main/linux-desktop.js';
import { openLogFile } from '../../../main/log-file.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pier-os-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('command line', () => {
  it('a relative --pier-user-data is taken from where Pier was started', () => {
    expect(userDataArg(['electron', '.', '--pier-user-data=portable/data'], '/home/me/Pier')).toBe('/home/me/Pier/portable/data');
    expect(userDataArg(['x', '--pier-user-data=/abs'], '/cwd')).toBe('/abs');
    expect(userDataArg(['x'], '/cwd')).toBeNull();
    expect(userDataArg(['x', '--pier-user-data='], '/cwd')).toBeNull();
  });

  it('started at login: macOS asks the system, Windows and Linux pass --hidden', () => {
    expect(startedAtLogin('darwin', [], () => true)).toBe(true);
    expect(startedAtLogin('darwin', [HIDDEN_ARG], () => false)).toBe(false);
    expect(startedAtLogin('win32', [HIDDEN_ARG], () => false)).toBe(true);
    expect(startedAtLogin('linux', ['pier'], () => true)).toBe(false);
  });
});

describe('Linux autostart', () => {
  it('writes an XDG autostart entry that starts Pier in the tray, and removes it', () => {
    const auto = join(dir, 'autostart');
    setAutostart(true, ['/opt/Pier/pier'], auto);
    const text = readFileSync(join(auto, AUTOSTART_FILE), 'utf8');
    expect(text).toContain('[Desktop Entry]\nType=Application\nName=Pier\n');
    expect(text).toContain('Exec=/opt/Pier/pier --hidden\n');
    setAutostart(false, ['/opt/Pier/pier'], auto);
    expect(existsSync(join(auto, AUTOSTART_FILE))).toBe(false);
    // removing what is not there is no error
    setAutostart(false, ['/opt/Pier/pier'], auto);
  });

  it('quotes arguments as the desktop-entry specification asks, and refuses a path with a line break', () => {
    // a literal $ in a quoted argument is \\$ in the file (the string escape, then the quoting one)
    expect(autostartEntry(['/home/me/My Apps/electron', '/home/me/pier $x'])).toContain('Exec="/home/me/My Apps/electron" "/home/me/pier \\\\$x" --hidden\n');
    expect(autostartEntry(['/opt/100%/pier'])).toContain('Exec=/opt/100%%/pier --hidden\n');
    expect(() => autostartEntry(['/tmp/x\nExec=/bin/evil'])).toThrow(/control characters/);
  });

  it('lives in $XDG_CONFIG_HOME/autostart, or ~/.config/autostart', () => {
    expect(autostartDir({ XDG_CONFIG_HOME: '/x/conf' })).toBe('/x/conf/autostart');
    expect(autostartDir({})).toMatch(/\.config\/autostart$/);
  });

  it('knows a Wayland session', () => {
    expect(isWayland({ XDG_SESSION_TYPE: 'wayland' })).toBe(true);
    expect(isWayland({ WAYLAND_DISPLAY: 'wayland-0' })).toBe(true);
    expect(isWayland({ XDG_SESSION_TYPE: 'x11', DISPLAY: ':0' })).toBe(false);
  });
});

describe('server log', () => {
  it('rotates past its size: at most the current file and one older one', () => {
    const file = join(dir, 'logs', 'server.log');
    const log = openLogFile(file, 1000);
    for (let i = 0; i < 50; i++) log.write(`${String(i).padStart(3, '0')} ${'x'.repeat(95)}\n`);
    log.close();
    expect(statSync(file).size).toBeLessThanOrEqual(1000);
    expect(statSync(`${file}.1`).size).toBeLessThanOrEqual(1000);
    expect(readFileSync(file, 'utf8').trimEnd().split('\n').at(-1)).toMatch(/^049 /);
    expect(existsSync(`${file}.2`)).toBe(false);
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('makes a log file an older version left readable private', () => {
    const file = join(dir, 'old.log');
    writeFileSync(file, 'old\n', { mode: 0o644 });
    chmodSync(file, 0o644);
    openLogFile(file).close();
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('appends to the file of an earlier run', () => {
    const file = join(dir, 'server.log');
    openLogFile(file).write('first run\n');
    const log = openLogFile(file);
    log.write('second run\n');
    log.close();
    expect(readFileSync(file, 'utf8')).toBe('first run\nsecond run\n');
  });
});

describe('Linux tray host', () => {
  it('is none on a real session bus without a StatusNotifierWatcher, and none without a bus', async () => {
    const { spawn } = await import('node:child_process');
    const bus = spawn('dbus-daemon', ['--session', '--nofork', '--print-address=1', `--address=unix:path=${join(dir, 'bus')}`]);
    try {
      const address = await new Promise<string>((resolve, reject) => {
        bus.stdout.once('data', (d: Buffer) => resolve(d.toString().trim()));
        bus.once('error', reject);
      });
      expect(await hasTrayHost({ PATH: process.env['PATH'], DBUS_SESSION_BUS_ADDRESS: address })).toBe(false);
      expect(await hasTrayHost({ PATH: process.env['PATH'], DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(dir, 'nobus')}` })).toBe(false);
    } finally {
      bus.kill('SIGKILL');
    }
  });
});
