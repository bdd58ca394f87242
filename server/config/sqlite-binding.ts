/**
 * `PIER_SQLITE_BINDING`: the absolute path of a compiled better-sqlite3 module
 * (`better_sqlite3.node`) to load instead of the one in node_modules. A
 * compiled module fits one runtime: node_modules holds the build for Node
 * (the tests, the headless server), and the desktop app's development start
 * names an Electron build of its own here (`main/native-build.ts`). A
 * packaged app leaves it unset: packaging rebuilds node_modules for Electron.
 * Read when a SQLite database is opened; unset or empty means node_modules.
 */
import { existsSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import type { Env } from './env.js';

export const SQLITE_BINDING_VAR = 'PIER_SQLITE_BINDING';

/** The module that `env` names, or undefined; throws, naming the variable, for a relative path or a missing file. */
export const sqliteBinding = (env: Env = process.env): string | undefined => {
  const path = env[SQLITE_BINDING_VAR]?.trim();
  if (path === undefined || path === '') return undefined;
  if (!isAbsolute(path)) throw new Error(`${SQLITE_BINDING_VAR} must be the absolute path of better_sqlite3.node, not ${path}`);
  if (!existsSync(path)) throw new Error(`${SQLITE_BINDING_VAR} names ${path}, which does not exist`);
  return path;
};
