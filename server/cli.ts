/**
 * `npm run serve -- [config-file]`: the headless server (`cli-main.ts`).
 * scripts/serve.mjs starts this file with the server's Node flags and memory
 * environment (`process/flags.ts`); the process's own memory set-up runs
 * here, before the server's modules load.
 */
import { setUpProcessMemory } from './process/memory.js';

const memory = setUpProcessMemory();
const { runCli } = await import('./cli-main.js');

runCli(process.argv.slice(2), memory).then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`Pier could not start: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  },
);
