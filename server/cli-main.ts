/**
 * The headless server of `npm run serve -- [config-file]` (entry: `cli.ts`).
 * The configuration file is the only argument; environment variables
 * `SERVICE_...` override it. Run by the desktop app, it is its hosted server (`hosted.ts`).
 */
import type { ProcessMemory } from './process/memory.js';
import { ConfigError, loadProcessConfig } from './config/index.js';
import { hostPort, runHosted } from './hosted.js';
import { createServer } from './index.js';
import { createLogger } from './logging/logger.js';

/** Runs the server until SIGINT or SIGTERM; the exit code. `memory`: what the entry could set up. */
export const runCli = async (args: string[], memory: ProcessMemory): Promise<number> => {
  // run by the desktop app: it talks over the message port and decides when to stop
  const host = hostPort();
  if (host) return runHosted(host, args[0]);
  if (args.length > 1 || args[0] === '--help' || args[0] === '-h') {
    process.stderr.write('Usage: npm run serve -- [config-file]\n');
    return args.length > 1 ? 2 : 0;
  }
  let loaded;
  try {
    loaded = await loadProcessConfig(args[0]);
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`The configuration has ${e.errors.length} error(s):\n${e.errors.map((m) => `  - ${m}`).join('\n')}\n`);
      return 1;
    }
    throw e;
  }
  const { config, warnings } = loaded;
  const log = createLogger(config.logging);
  for (const w of warnings) log.warn(w);
  if (!memory.youngCollections) log.warn('V8 offers no garbage collection on demand: buffers of uploads and database rows are freed later.');
  const server = createServer(config, {
    logger: log,
    initialAdmin: {
      kind: 'generate',
      onCreated: (login, password) => {
        process.stdout.write(
          `\nCreated the first admin account.\n  login:    ${login}\n  password: ${password}\n` +
            'This password is shown only now. Change it under Settings after logging in.\n\n',
        );
      },
    },
  });
  const { url } = await server.start();
  process.stdout.write(`Pier is running at ${url}/app\n`);
  await new Promise<void>((resolve) => {
    // `on`, not `once`: under `npm start` one Ctrl-C can arrive several times.
    const stop = () => resolve();
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await server.stop();
  return 0;
};
