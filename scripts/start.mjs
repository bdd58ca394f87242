// `npm start`: the desktop app when the Electron runtime is installed, otherwise the
// headless server (an offline install sets ELECTRON_SKIP_BINARY_DOWNLOAD=1, which
// leaves the electron package without its binary). Extra arguments are passed on.
// `prestart` has already built dist/.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);

/**
 * The path of the Electron executable, or null when there is none. Under plain Node
 * the electron package exports that path, and throws ('Electron failed to install
 * correctly') when its download was skipped or failed.
 */
function electronExecutable() {
  try {
    const path = createRequire(import.meta.url)('electron');
    return typeof path === 'string' && existsSync(path) ? path : null;
  } catch {
    return null;
  }
}

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

const electron = electronExecutable();
if (electron !== null) {
  requireBuilt('dist/main/index.js');
  // The app folder, not the script: Electron then reads package.json ("main" is
  // dist/main/index.js), so the app's name and version are Pier's own.
  const env = { ...process.env };
  delete env.ELECTRON_RUN_AS_NODE;
  run(electron, [root, ...args], env);
} else {
  console.log('Electron runtime not installed (offline install); running the headless server instead.');
  run(process.execPath, [requireBuilt('dist/server/cli.js'), ...args]);
}
