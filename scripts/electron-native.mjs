// better-sqlite3 built for Electron, for a development start: node_modules keeps the build
// for Node (the tests, the headless server), and the Electron build goes into a folder of
// its own (main/native-build.ts names it), which the desktop app hands to its server in
// PIER_SQLITE_BINDING. It is fetched once with better-sqlite3's own installer,
// prebuild-install, run in a folder holding a copy of better-sqlite3's package.json: the
// prebuilt binary of that version for Electron's ABI lands there, and nothing else moves.
import { spawn } from 'node:child_process';
import { copyFile, mkdir, readFile, rename, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve as resolvePath } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The longest the download may take before it counts as failed. */
const TIMEOUT_MS = 2 * 60 * 1000;

/** Runs prebuild-install in `cwd`; resolves to null on success, else the reason in one line. */
function runPrebuildInstall(moduleDir, cwd, args, env, timeoutMs) {
  return new Promise((resolve) => {
    const bin = createRequire(resolvePath(moduleDir, 'package.json')).resolve('prebuild-install/bin.js');
    const child = spawn(process.execPath, [bin, ...args], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'], timeout: timeoutMs });
    let report = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => {
      if (report.length < 64 * 1024) report += chunk;
    });
    child.on('error', (error) => resolve(error.message));
    child.on('close', (code, signal) => {
      if (code === 0) return resolve(null);
      // prebuild-install says why in its last warning or error
      const line = report
        .split('\n')
        .map((l) => l.replace(/^prebuild-install (warn|error|ERR!) (install )?/, '').trim())
        .filter((l) => l !== '')
        .at(-1);
      if (signal !== null && line === undefined) return resolve(`no answer within ${Math.round(timeoutMs / 1000)} s`);
      resolve((line ?? `prebuild-install exited with ${code}`).slice(0, 300));
    });
  });
}

/**
 * Makes better-sqlite3 (installed in `moduleDir`) built for Electron `electronVersion`
 * available in `buildDir`: the compiled module's path when it is there or the download
 * succeeds, else the reason in one line. A failed attempt leaves no folder behind.
 *
 * @param {{ moduleDir: string, buildDir: string, electronVersion: string, platform?: string,
 *   arch?: string, env?: NodeJS.ProcessEnv, timeoutMs?: number }} options
 * @returns {Promise<{ path: string } | { reason: string }>}
 */
export async function ensureElectronSqlite({
  moduleDir,
  buildDir,
  electronVersion,
  platform = process.platform,
  arch = process.arch,
  env = process.env,
  timeoutMs = TIMEOUT_MS,
}) {
  const binding = join(buildDir, 'build', 'Release', 'better_sqlite3.node');
  if (existsSync(binding)) return { path: binding };

  const partial = `${buildDir}.partial`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true });
  try {
    await copyFile(join(moduleDir, 'package.json'), join(partial, 'package.json'));
    const args = ['--runtime', 'electron', '--target', electronVersion, '--platform', platform, '--arch', arch];
    const failure = await runPrebuildInstall(moduleDir, partial, args, env, timeoutMs);
    if (failure !== null) return { reason: failure };
    if (!existsSync(join(partial, 'build', 'Release', 'better_sqlite3.node')))
      return { reason: 'prebuild-install finished without better_sqlite3.node' };
    await rm(buildDir, { recursive: true, force: true });
    await rename(partial, buildDir);
    return { path: binding };
  } finally {
    await rm(partial, { recursive: true, force: true });
  }
}

/**
 * `ensureElectronSqlite` for the project in `root`: its better-sqlite3, for its installed
 * Electron, in the folder that main/native-build.ts names (read from dist/, which must be
 * built).
 *
 * @param {string} root
 * @returns {Promise<{ path: string } | { reason: string }>}
 */
export async function ensureProjectElectronSqlite(root) {
  const nativeBuild = join(root, 'dist', 'main', 'native-build.js');
  if (!existsSync(nativeBuild)) return { reason: 'dist/main/native-build.js is missing; run `npm run build` first' };
  const { electronSqliteBuildDir } = await import(pathToFileURL(nativeBuild).href);
  const { version } = JSON.parse(await readFile(join(root, 'node_modules', 'electron', 'package.json'), 'utf8'));
  const buildDir = electronSqliteBuildDir(root, version);
  const moduleDir = join(root, 'node_modules', 'better-sqlite3');
  if (buildDir === null) return { reason: 'better-sqlite3 is not installed' };
  return ensureElectronSqlite({ moduleDir, buildDir, electronVersion: version });
}
