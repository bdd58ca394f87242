/**
 * `npm run serve -- [config-file]`: the headless server (`cli-main.ts`).
 * The process's memory is set up first, before the server's modules load
 * and start threads, so that glibc's limits cover every arena they make.
 */
import { setUpProcessMemory } from './common/process-memory.js';

const memory = setUpProcessMemory();
const { runCli } = await import('./cli-main.js');

runCli(process.argv.slice(2), memory).then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`Pier could not start: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  },
);
