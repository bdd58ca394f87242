/**
 * Hosts the Pier server inside the desktop app: the ONLY module of main/ that imports
 * server/. It writes the configuration file generated from the desktop settings into
 * the user-data folder, loads it with the server's own loader, and starts, stops and
 * restarts the server one operation at a time. Stopping closes the database; uploads
 * in progress stay resumable (tus offsets live in the store).
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import type { Logger } from '../server/common/log.js';
import { setUpProcessMemory } from '../server/common/process-memory.js';
import { ConfigError, loadConfig, type Config } from '../server/config/index.js';
import type { ServerEvent } from '../server/core/events/events.js';
import { createServer, type PierServer } from '../server/index.js';
import { createLogger } from '../server/logging/logger.js';
import type { DesktopSettings } from './desktop-settings.js';
import { LOCAL_HOST, renderServerConfig } from './server-config.js';

export type { ServerEvent } from '../server/core/events/events.js';

export type HostState =
  | { kind: 'stopped' }
  | { kind: 'starting' }
  | { kind: 'running'; port: number; localUrl: string }
  | { kind: 'error'; reason: string };

/** Limits of the running configuration the tray needs (milliseconds). */
export interface HostLimits {
  defaultValidity: number;
  maxValidity: number;
}

export interface ServerHost {
  state(): HostState;
  onState(listener: (state: HostState) => void): () => void;
  /** Events of whichever server is running (subscriptions survive restarts). */
  onServerEvent(listener: (event: ServerEvent) => void): () => void;
  /**
   * Starts the server with `settings`; `initialAdmin` creates the first admin account
   * when the database has none. Resolves with the new state ('running' or 'error' with
   * the reason); never rejects.
   */
  start(settings: DesktopSettings, initialAdmin?: { login: string; password: string }): Promise<HostState>;
  /** Stops the server (database closed); a no-op when it is not running. */
  stop(): Promise<void>;
  /** Stops and starts with the new settings. */
  restart(settings: DesktopSettings): Promise<HostState>;
  /**
   * A session token for the desktop's own account, signed with the running server's
   * secret. The server still checks on every request that the account exists, is
   * active, and whether it is an admin.
   */
  tokenFor(account: { id: string; login: string }): Promise<string>;
  limits(): HostLimits | undefined;
  /** The settings of the last start, running or not (`undefined` before any start). */
  settingsInUse(): DesktopSettings | undefined;
}

export interface HostOptions {
  /** the app's user-data folder: the server's `data-dir` and where its config file is written */
  dataDir: string;
  /** where the server's log goes besides stdout (default: `<dataDir>/logs/server.log`); `null`: stdout only */
  logFile?: string | null;
  /** replaces the log sink entirely (tests) */
  logger?: (config: Config) => Logger;
  /** configuration warnings (unknown keys of the extra file, ...) */
  warn?: (message: string) => void;
}

export const CONFIG_FILE = 'server.conf';

/** A readable reason for a failed start. */
export const describeStartError = (e: unknown, port: number): string => {
  if (e instanceof ConfigError) return `Invalid configuration: ${e.errors.join('; ')}`;
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') return `Port ${port} is already in use by another program.`;
  if (code === 'EACCES') return `Port ${port} may not be used by Pier (permission denied).`;
  return e instanceof Error ? e.message : String(e);
};

/** stdout plus a log file. */
const teeStream = (file: WriteStream): Writable =>
  new Writable({
    write(chunk: Buffer, _enc, done) {
      process.stdout.write(chunk);
      file.write(chunk, done);
    },
  });

export const createServerHost = (options: HostOptions): ServerHost => {
  const { dataDir } = options;
  // The app's main process hosts the server, and a packaged app takes no Node flags.
  const memory = setUpProcessMemory();
  const logFile = options.logFile === undefined ? join(dataDir, 'logs', 'server.log') : options.logFile;
  let state: HostState = { kind: 'stopped' };
  let server: PierServer | undefined;
  let config: Config | undefined;
  let unsubscribe: (() => void) | undefined;
  let logStream: WriteStream | undefined;
  const stateListeners = new Set<(s: HostState) => void>();
  const eventListeners = new Set<(e: ServerEvent) => void>();
  let queue: Promise<unknown> = Promise.resolve();
  let inUse: DesktopSettings | undefined;

  const serial = <T>(op: () => Promise<T>): Promise<T> => {
    const next = queue.then(op);
    queue = next.catch(() => undefined);
    return next;
  };
  const setState = (s: HostState) => {
    state = s;
    for (const l of [...stateListeners]) l(s);
  };

  const makeLogger = async (c: Config): Promise<Logger> => {
    if (options.logger) return options.logger(c);
    if (logFile === null) return createLogger(c.logging);
    await mkdir(dirname(logFile), { recursive: true });
    logStream ??= createWriteStream(logFile, { flags: 'a' });
    return createLogger(c.logging, teeStream(logStream));
  };

  const doStop = async () => {
    const s = server;
    server = undefined;
    config = undefined;
    unsubscribe?.();
    unsubscribe = undefined;
    if (s) await s.stop();
    setState({ kind: 'stopped' });
  };

  const doStart = async (settings: DesktopSettings, initialAdmin?: { login: string; password: string }): Promise<HostState> => {
    if (server) await doStop();
    inUse = structuredClone(settings);
    setState({ kind: 'starting' });
    try {
      // the server's data directory: private (the server refuses one others can write to)
      await mkdir(dataDir, { recursive: true, mode: 0o700 });
      if (settings.receivedFolder !== '') await mkdir(settings.receivedFolder, { recursive: true });
      const file = join(dataDir, CONFIG_FILE);
      await writeFile(file, renderServerConfig(settings, dataDir), { mode: 0o600 });
      const loaded = await loadConfig({ file, env: {}, defaults: { dataDir } });
      for (const w of loaded.warnings) options.warn?.(w);
      const logger = await makeLogger(loaded.config);
      logger.info('Process memory', { youngCollections: memory.youngCollections, mallocLimits: memory.malloc });
      const s = createServer(loaded.config, {
        logger,
        initialAdmin: initialAdmin ? { kind: 'given', ...initialAdmin } : { kind: 'none' },
      });
      const { port } = await s.start();
      server = s;
      config = loaded.config;
      unsubscribe = s.events.subscribe((e) => {
        for (const l of [...eventListeners]) l(e);
      });
      const running: HostState = { kind: 'running', port, localUrl: `http://${LOCAL_HOST}:${port}` };
      setState(running);
      return running;
    } catch (e) {
      const failed: HostState = { kind: 'error', reason: describeStartError(e, settings.port) };
      setState(failed);
      return failed;
    }
  };

  return {
    state: () => state,
    onState(listener) {
      stateListeners.add(listener);
      return () => stateListeners.delete(listener);
    },
    onServerEvent(listener) {
      eventListeners.add(listener);
      return () => eventListeners.delete(listener);
    },
    start: (settings, initialAdmin) => serial(() => doStart(settings, initialAdmin)),
    stop: () => serial(doStop),
    restart: (settings) => serial(() => doStart(settings)),
    async tokenFor(account) {
      if (!server) throw new Error('The server is not running.');
      return server.hostToken(account);
    },
    settingsInUse: () => (inUse ? structuredClone(inUse) : undefined),
    limits: () => (config ? { defaultValidity: config.webapp.defaultValidity, maxValidity: config.backend.share.maxValidity } : undefined),
  };
};
