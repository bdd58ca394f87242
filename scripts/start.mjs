// `npm start`: the desktop app, after fetching the Electron runtime on first use (see
// electron-runtime.mjs); when that is not possible, one line saying why and the headless
// server. Extra arguments are passed on. `prestart` has already built dist/.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureElectron } from './electron-runtime.mjs';
import { serverNodeFlags } from './server-node-flags.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);

/** Runs the command with this terminal, forwards SIGINT/SIGTERM, and exits as it exits. */
function run(command, commandArgs, env = process.env) {
  const child = spawn(command, commandArgs, { cwd: root, env, stdio: 'inherit' });
  const forward = (signal) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  const signals = ['SIGINT', 'SIGTERM'];
  for (const signal of signals) process.on(signal, forward);

  child.on('error', (error) => {
    console.error(`Could not start ${command}: ${error.message}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    for (const s of signals) process.off(s, forward);
    if (signal !== null) {
      // Die of the same signal, so that our parent sees what happened to the child.
      process.kill(process.pid, signal);
      return;
    }
    process.exit(code ?? 1);
  });
}

function requireBuilt(relPath) {
  const path = join(root, relPath);
  if (!existsSync(path)) {
    console.error(`${relPath} is missing; run \`npm run build\` first.`);
    process.exit(1);
  }
  return path;
}

// The failed download is remembered in the data folder: `SERVICE_DATA_DIR` when
// given, else the default one (a `data-dir` in a configuration file is not read here).
const { defaultDataDir } = await import(pathToFileURL(requireBuilt('dist/server/config/data-dir.js')).href);
const electron = await ensureElectron({
  electronDir: join(root, 'node_modules', 'electron'),
  stateFile: join(process.env.SERVICE_DATA_DIR?.trim() || defaultDataDir(process.env), 'electron-download.json'),
});
if ('path' in electron) {
  requireBuilt('dist/main/index.js');
  // The app folder, not the script: Electron then reads package.json ("main" is
  // dist/main/index.js), so the app's name and version are Pier's own.
  const env = { ...process.env };
  delete env.ELECTRON_RUN_AS_NODE;
  // The server runs in the main process: it gets the server's Node flags as V8 flags.
  run(electron.path, [`--js-flags=${serverNodeFlags().join(' ')}`, root, ...args], env);
} else {
  console.log(`No Electron runtime: ${electron.reason}. Running the headless server instead.`);
  run(process.execPath, [...serverNodeFlags(), requireBuilt('dist/server/cli.js'), ...args]);
}
