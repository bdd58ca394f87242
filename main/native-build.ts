/**
 * Where a development start finds better-sqlite3 built for Electron. A compiled module
 * fits one runtime: node_modules keeps the build for Node (the tests, the headless
 * server), and the first `npm start` puts an Electron build in a folder of its own
 * (scripts/electron-native.mjs), named by the versions it fits. The server's process is
 * given that file in `PIER_SQLITE_BINDING` (`server/config/sqlite-binding.ts`). A
 * packaged app has no such folder: packaging rebuilds node_modules for Electron.
 * No Electron import: `npm start` runs this under Node to know where to build.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The server's variable for it (`server/config/sqlite-binding.ts`, which main/ does not load). */
export const SQLITE_BINDING_VAR = 'PIER_SQLITE_BINDING';

/** The folder, in the app's root (git-ignored), of native modules built for Electron. */
export const ELECTRON_NATIVE_DIR = '.electron-native';

/** The compiled module inside a build folder, where prebuild-install and node-gyp put it. */
export const SQLITE_MODULE_IN_BUILD = join('build', 'Release', 'better_sqlite3.node');

/**
 * The build folder of the installed better-sqlite3 for this Electron version, platform
 * and architecture; null when better-sqlite3 is not installed under `appRoot`.
 */
export const electronSqliteBuildDir = (
  appRoot: string,
  electronVersion: string,
  platform: string = process.platform,
  arch: string = process.arch,
): string | null => {
  let version: unknown;
  try {
    ({ version } = JSON.parse(readFileSync(join(appRoot, 'node_modules', 'better-sqlite3', 'package.json'), 'utf8')) as { version?: unknown });
  } catch {
    return null;
  }
  if (typeof version !== 'string') return null;
  return join(appRoot, ELECTRON_NATIVE_DIR, `better-sqlite3-${version}-electron-${electronVersion}-${platform}-${arch}`);
};

/**
 * The absolute path of better-sqlite3's module built for the running Electron, for the
 * server's `PIER_SQLITE_BINDING`; null when there is none (a packaged app, which needs
 * none; a development tree whose build failed; or not running under Electron).
 */
export const electronSqliteBinding = (appRoot: string, electronVersion: string | undefined = process.versions.electron): string | null => {
  if (electronVersion === undefined) return null;
  const dir = electronSqliteBuildDir(appRoot, electronVersion);
  if (dir === null) return null;
  const file = join(dir, SQLITE_MODULE_IN_BUILD);
  return existsSync(file) ? file : null;
};
