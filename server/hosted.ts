/**
 * The server as a child of the desktop app: the same entry as the headless command
 * (`cli.ts`), run by Electron's `utilityProcess.fork` (or, in tests, by
 * `child_process.fork` with `PIER_HOST=ipc`). It talks to its parent over the
 * process's message port (`hosted-protocol.ts`): it says hello, starts when told
 * (with the first admin account the desktop's first start chose), reports that it
 * runs or why it could not start, forwards the server's events, hands out session
 * tokens for the desktop's own account, and stops when told. Nothing here knows
 * Electron: the port is `process.parentPort` or Node's IPC channel, the same shape.
 */
import type { Logger } from './common/log.js';
import { ConfigError, loadProcessConfig } from './config/index.js';
import type { HostMessage, ServerMessage } from './hosted-protocol.js';
import { createServer } from './index.js';
import { createLogger } from './logging/logger.js';

export interface HostPort {
  /** Sends `message`; resolves once it has left this process (before an exit). */
  post(message: ServerMessage): Promise<void>;
  onMessage(listener: (message: HostMessage) => void): void;
}

interface ParentPortLike {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (e: { data: unknown }) => void): unknown;
}

/** The port to the hosting process, or `null` when the server runs on its own. */
export const hostPort = (): HostPort | null => {
  const parent = (process as unknown as { parentPort?: ParentPortLike | null }).parentPort;
  if (parent)
    return {
      post: async (m) => parent.postMessage(m),
      onMessage: (l) => parent.on('message', (e) => l(e.data as HostMessage)),
    };
  const send = process.send?.bind(process);
  if (send && process.env['PIER_HOST'] === 'ipc')
    return {
      post: (m) => new Promise((resolve) => send(m, undefined, undefined, () => resolve())),
      onMessage: (l) => process.on('message', (m) => l(m as HostMessage)),
    };
  return null;
};

/** A readable reason for a failed start. */
export const describeStartError = (e: unknown, port: number | undefined): string => {
  if (e instanceof ConfigError) return `Invalid configuration: ${e.errors.join('; ')}`;
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') return `Port ${port ?? ''} is already in use by another program.`;
  if (code === 'EACCES') return `Port ${port ?? ''} may not be used by Pier (permission denied).`;
  return e instanceof Error ? e.message : String(e);
};

/** How long a stop may take before the process exits anyway (the host kills it a little later). */
const STOP_MS = 8_000;

/**
 * Runs the hosted server until the host says stop (or SIGTERM, or the host goes
 * away); the exit code. `file` is the configuration file the host wrote.
 */
export const runHosted = async (port: HostPort, file: string | undefined): Promise<number> => {
  const start = await new Promise<Extract<HostMessage, { type: 'start' }>>((resolve) => {
    let started = false;
    port.onMessage((m) => {
      if (m.type === 'start' && !started) {
        started = true;
        resolve(m);
      }
    });
    void port.post({ type: 'hello' });
  });

  let configuredPort: number | undefined;
  let log: Logger | undefined;
  try {
    const { config, warnings } = await loadProcessConfig(file);
    configuredPort = config.bind.port;
    log = createLogger(config.logging);
    for (const w of warnings) log.warn(w);
    const server = createServer(config, {
      logger: log,
      initialAdmin: start.initialAdmin ? { kind: 'given', ...start.initialAdmin } : { kind: 'none' },
    });
    const stopped = new Promise<void>((resolve) => {
      port.onMessage((m) => {
        if (m.type === 'stop') resolve();
        else if (m.type === 'token')
          server.hostToken(m.account).then(
            (token) => void port.post({ type: 'token', id: m.id, token }),
            (e: unknown) => void port.post({ type: 'token', id: m.id, token: null, error: e instanceof Error ? e.message : String(e) }),
          );
      });
      process.on('SIGTERM', () => resolve());
      process.on('SIGINT', () => resolve());
      // the host's end of an IPC channel went away: nobody is left to stop us
      process.on('disconnect', () => resolve());
    });
    const { port: listening } = await server.start();
    server.events.subscribe((event) => void port.post({ type: 'event', event }));
    void port.post({
      type: 'running',
      port: listening,
      limits: { defaultValidity: config.webapp.defaultValidity, maxValidity: config.backend.share.maxValidity },
    });
    await stopped;
    const timer = setTimeout(() => process.exit(0), STOP_MS);
    await server.stop();
    clearTimeout(timer);
    return 0;
  } catch (e) {
    const reason = describeStartError(e, configuredPort);
    log?.error('Pier could not start', { reason });
    await port.post({ type: 'failed', reason });
    return 1;
  }
};
