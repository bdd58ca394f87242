// How `npm run serve` and the headless `npm start` start the server: `node` with the
// server's Node flags and memory environment (server/process/flags.ts, built into dist/),
// on dist/server/cli.js, with this terminal. The flags and glibc's limits act only at
// start-up, so they are given to the new process, never set from inside it.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The absolute path of a built file; exits with one line when it is missing. */
export function requireBuilt(relPath) {
  const path = join(root, relPath);
  if (!existsSync(path)) {
    console.error(`${relPath} is missing; run \`npm run build\` first.`);
    process.exit(1);
  }
  return path;
}

/**
 * Runs the command with this terminal, forwards SIGINT/SIGTERM/SIGHUP to it, and exits as
 * it exits (dying of the same signal when it died of one).
 */
export function runForwarding(command, commandArgs, env = process.env) {
  const child = spawn(command, commandArgs, { cwd: root, env, stdio: 'inherit' });
  const forward = (signal) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
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

/** Starts the headless server with `args` (the optional configuration file). */
export async function runServer(args) {
  const cli = requireBuilt('dist/server/cli.js');
  const { SERVER_NODE_FLAGS, SERVER_MEMORY_ENV } = await import(pathToFileURL(requireBuilt('dist/server/process/flags.js')).href);
  runForwarding(process.execPath, [...SERVER_NODE_FLAGS, cli, ...args], { ...SERVER_MEMORY_ENV, ...process.env });
}
