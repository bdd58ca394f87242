#!/usr/bin/env node
// Run by `npm test` before anything else: makes sure the Debian packages the
// suite needs (and npm cannot provide) are installed. As root it installs the
// missing ones; otherwise it fails with the exact command to run. A suite that
// skips because a dependency is missing counts as a failure, so there is no
// "skip" mode here.
import { spawnSync } from 'node:child_process';

// The Debian packages the test suite needs. `chromium` runs the browser
// end-to-end tests (Playwright cannot download its own browser here). The
// player gateway tests run a real `mpd`, drive it from another client with
// `mpc`, and generate their music library with sox (with its Ogg and MP3
// writers), flac/metaflac and id3v2.
const PACKAGES = [
  'postgresql',
  'mariadb-server',
  'mariadb-client',
  'mpd',
  'mpc',
  'sox',
  'libsox-fmt-base',
  'libsox-fmt-mp3',
  'flac',
  'id3v2',
  'chromium',
  // self-signed certificates for the SMTP TLS tests
  'openssl',
  // Info-ZIP and libarchive (bsdtar, which also reads a ZIP as a stream) read back the ZIPs Pier writes
  'unzip',
  'libarchive-tools',
  // a real session bus for the desktop's tray-host check (dbus-daemon, dbus-send)
  'dbus-daemon',
  'dbus-bin',
];

const installCommand = (pkgs) =>
  `apt-get update && apt-get install -y --no-install-recommends ${pkgs.join(' ')}`;

/** true when dpkg reports the package as fully installed */
function isInstalled(pkg) {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.trim().endsWith(' installed');
}

function run(cmd, args) {
  console.log(`ensure-system-deps: running: ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited with ${r.status ?? r.signal}`);
}

function main() {
  const probe = spawnSync('dpkg-query', ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    console.error(
      'ensure-system-deps: dpkg-query not found. The test suite needs a Debian-based system with these packages:\n' +
        `  ${PACKAGES.join(' ')}\n` +
        `Install them with:\n  ${installCommand(PACKAGES)}`,
    );
    return 1;
  }

  const missing = PACKAGES.filter((p) => !isInstalled(p));
  if (missing.length === 0) return 0;

  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    console.error(
      `ensure-system-deps: missing Debian packages: ${missing.join(', ')}\n` +
        `Install them (as root) with:\n  ${installCommand(missing)}`,
    );
    return 1;
  }

  console.log(`ensure-system-deps: installing missing Debian packages: ${missing.join(', ')}`);
  try {
    run('apt-get', ['update']);
    run('apt-get', ['install', '-y', '--no-install-recommends', ...missing]);
  } catch (e) {
    console.error(`ensure-system-deps: installation failed: ${e instanceof Error ? e.message : String(e)}`);
    console.error(`Run it by hand:\n  ${installCommand(missing)}`);
    return 1;
  }
  const still = missing.filter((p) => !isInstalled(p));
  if (still.length > 0) {
    console.error(`ensure-system-deps: still missing after install: ${still.join(', ')}`);
    return 1;
  }
  console.log(`ensure-system-deps: installed ${missing.join(', ')}`);
  return 0;
}

process.exitCode = main();
