// `npm run dist:desktop [-- electron-builder arguments]`: the desktop packages, by
// electron-builder, leaving node_modules' native modules built for Node. electron-builder
// rebuilds native modules for Electron (npmRebuild) in place, in the development tree's
// node_modules, before it copies them into the package; the tests and the headless server
// would then load Electron's build and fail with NODE_MODULE_VERSION. So the `build`
// folder of every native production dependency is set aside first and put back after
// packaging, whether it succeeded, failed or was interrupted (a run killed outright is
// put back at the start of the next one).
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { productionPackageDirs } from './production-deps.mjs';

/** The production dependencies that electron-builder rebuilds: those with a binding.gyp. */
export function nativeModuleDirs(root) {
  return productionPackageDirs(root).filter((dir) => existsSync(join(dir, 'binding.gyp')));
}

/** Puts back the builds listed in `saved` (a folder made by `setAside`), then removes it. */
function putBack(root, saved) {
  const list = JSON.parse(readFileSync(join(saved, 'modules.json'), 'utf8'));
  list.forEach(({ dir, hadBuild }, i) => {
    const build = join(root, dir, 'build');
    rmSync(build, { recursive: true, force: true });
    if (hadBuild) renameSync(join(saved, String(i)), build);
  });
  rmSync(saved, { recursive: true, force: true });
}

/** Copies the `build` folder of each native module into `saved`, with the list of them. */
function setAside(root, dirs, saved) {
  mkdirSync(saved, { recursive: true });
  const list = dirs.map((dir, i) => {
    const build = join(dir, 'build');
    const hadBuild = existsSync(build);
    if (hadBuild) cpSync(build, join(saved, String(i)), { recursive: true, verbatimSymlinks: true });
    return { dir: relative(root, dir), hadBuild };
  });
  // written last: a folder without it was not finished and holds nothing to put back
  writeFileSync(join(saved, 'modules.json'), JSON.stringify(list));
}

/**
 * Runs `run` (packaging) with the native modules' builds of `root` set aside, and puts them
 * back after it; resolves to what `run` resolves to.
 */
export async function keepNodeBuilds(root, run) {
  const saved = join(root, '.tmp', 'dist-node-builds');
  if (existsSync(join(saved, 'modules.json'))) putBack(root, saved);
  rmSync(saved, { recursive: true, force: true });
  setAside(root, nativeModuleDirs(root), saved);
  try {
    return await run();
  } finally {
    putBack(root, saved);
  }
}

/** Runs electron-builder with `args` on this terminal; its exit code (1 for a signal). */
function electronBuilder(root, args) {
  return new Promise((done) => {
    const cli = createRequire(join(root, 'package.json')).resolve('electron-builder/cli.js');
    const child = spawn(process.execPath, [cli, ...args], { cwd: root, stdio: 'inherit' });
    // Ctrl-C reaches electron-builder too; this process stays to put the builds back.
    const forward = (signal) => child.exitCode === null && child.kill(signal);
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, forward);
    child.on('error', (error) => {
      console.error(`Could not start electron-builder: ${error.message}`);
      done(1);
    });
    child.on('exit', (code) => done(code ?? 1));
  });
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const code = await keepNodeBuilds(root, () => electronBuilder(root, process.argv.slice(2)));
  process.exit(code);
}
