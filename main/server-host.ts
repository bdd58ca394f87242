/**
 * Runs the Pier server in its own process: Electron's `utilityProcess.fork` of the
 * same entry the headless command runs (`dist/server/cli.js`), so that transfers,
 * database queries and native code never run on the main process, and a crash there
 * is reported and restarted, never a crash of the app. The process is passed in
 * (`ForkUtility`): tests give `child_process.fork` of the real entry, the same shape.
 *
 * It writes the configuration generated from the desktop settings (secrets travel
 * in the child's environment, never in the file), starts, stops and restarts the
 * server one operation at a time, and talks to it over the message port
 * (`server/hosted-protocol.ts`): state, events and the desktop's session token.
 * A stop asks the server, then kills it when it has not exited within the bound.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { HostLimits, HostMessage, ServerEvent, ServerMessage } from '../server/hosted-protocol.js';
import type { DesktopSettings } from './desktop-settings.js';
import { LOCAL_HOST, renderServerConfig, secretEnv } from './server-config.js';

export type { HostLimits, ServerEvent } from '../server/hosted-protocol.js';

export type HostState =
  | { kind: 'stopped' }
  | { kind: 'starting' }
  | { kind: 'running'; port: number; localUrl: string }
  /** could not start; the user decides what next */
  | { kind: 'error'; reason: string }
  /** stopped unexpectedly; starts again by itself */
  | { kind: 'restarting'; reason: string };

/** The parts of Electron's `UtilityProcess` the host uses. */
export interface UtilityLike {
  readonly pid: number | undefined;
  readonly stdout: NodeJS.ReadableStream | null;
  readonly stderr: NodeJS.ReadableStream | null;
  postMessage(message: unknown): void;
  kill(): boolean;
  on(event: 'exit', listener: (code: number) => void): unknown;
  on(event: 'message', listener: (message: unknown) => void): unknown;
}

export interface ForkOptions {
  env: Record<string, string>;
  execArgv: string[];
  stdio: 'pipe';
  serviceName: string;
}

/** `utilityProcess.fork`'s shape. */
export type ForkUtility = (modulePath: string, args: string[], options: ForkOptions) => UtilityLike;

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
  /**
   * Stops the server within the stop bound (killed after it); a no-op when it is not
   * running. `abortStart`: a start in progress is ended at once instead of awaited (quit).
   */
  stop(options?: { abortStart?: boolean }): Promise<void>;
  /** Stops and starts with the new settings. */
  restart(settings: DesktopSettings): Promise<HostState>;
  /** A session token for the desktop's own account, signed by the running server. */
  tokenFor(account: { id: string; login: string }): Promise<string>;
  limits(): HostLimits | undefined;
  /** The settings of the last start, running or not (`undefined` before any start). */
  settingsInUse(): DesktopSettings | undefined;
}

export interface HostOptions {
  fork: ForkUtility;
  /** the server's entry (`dist/server/cli.js`) */
  entry: string;
  /** the app's user-data folder: the server's `data-dir` and where its config file is written */
  dataDir: string;
  /** Node flags of the server process */
  execArgv?: readonly string[];
  /** the environment of the server process (secrets from the settings are added) */
  env?: Record<string, string>;
  /** the server's stdout and stderr (the log file) */
  output?: (chunk: Buffer) => void;
  /** how long a stop may take before the process is killed (default 10 s) */
  stopTimeoutMs?: number;
  /** how long a start may take before the process is killed (default 60 s: a first migration on a slow disk) */
  startTimeoutMs?: number;
  /** delay before the first restart after a crash, doubled after each crash in a row (default 1 s) */
  restartDelayMs?: number;
  /** sends SIGKILL (default `process.kill`) */
  killHard?: (pid: number) => void;
}

export const CONFIG_FILE = 'server.conf';
/** Crashes in a row after which Pier stops restarting the server and says so. */
export const MAX_CRASHES = 5;
/** A server that ran this long before it crashed starts a new count of crashes. */
const STABLE_MS = 60_000;
const TOKEN_TIMEOUT_MS = 5_000;
const MAX_RESTART_DELAY_MS = 30_000;
/** How much of the server's last error output a crash report keeps. */
const TAIL_BYTES = 2_048;

const SIGNALS: Record<number, string> = { 6: 'SIGABRT', 9: 'SIGKILL', 11: 'SIGSEGV', 15: 'SIGTERM' };

/** `exit code 1`, or the signal a POSIX shell's `128 + n` code stands for. */
const exitText = (code: number): string => (code > 128 && SIGNALS[code - 128] ? `killed by ${SIGNALS[code - 128]}` : `exit code ${code}`);

/** The last line the server printed on stderr that says something. */
const lastLine = (tail: string): string => {
  const lines = tail.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  const line = lines.at(-1) ?? '';
  try {
    const json = JSON.parse(line) as { msg?: unknown; reason?: unknown };
    return String(json.reason ?? json.msg ?? line);
  } catch {
    return line;
  }
};

interface Child {
  proc: UtilityLike;
  exited: Promise<number>;
  stopping: boolean;
  /** it said it runs: an exit from now on is a crash */
  running: boolean;
  startedAt: number;
  tail: string;
  tokens: Map<number, (m: Extract<ServerMessage, { type: 'token' }>) => void>;
}

export const createServerHost = (options: HostOptions): ServerHost => {
  const { dataDir } = options;
  const stopTimeout = options.stopTimeoutMs ?? 10_000;
  const startTimeout = options.startTimeoutMs ?? 60_000;
  const firstDelay = options.restartDelayMs ?? 1_000;
  const killHard = options.killHard ?? ((pid: number) => process.kill(pid, 'SIGKILL'));
  let state: HostState = { kind: 'stopped' };
  let child: Child | undefined;
  let limits: HostLimits | undefined;
  let inUse: DesktopSettings | undefined;
  let crashes = 0;
  let restartTimer: NodeJS.Timeout | undefined;
  let nextToken = 1;
  const stateListeners = new Set<(s: HostState) => void>();
  const eventListeners = new Set<(e: ServerEvent) => void>();
  let queue: Promise<unknown> = Promise.resolve();

  const serial = <T>(op: () => Promise<T>): Promise<T> => {
    const next = queue.then(op);
    queue = next.catch(() => undefined);
    return next;
  };
  const setState = (s: HostState) => {
    state = s;
    for (const l of [...stateListeners]) l(s);
  };
  const send = (c: Child, m: HostMessage) => {
    try {
      c.proc.postMessage(m);
    } catch {
      /* the process is gone; its exit is handled */
    }
  };

  /** Waits for the exit up to `ms`; true when it exited. */
  const exitedWithin = (c: Child, ms: number): Promise<boolean> =>
    Promise.race([c.exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms).unref())]);

  /** Ends the process: asked to stop, then SIGTERM, then SIGKILL, each after its wait. */
  const end = async (c: Child, askFirst: boolean): Promise<void> => {
    c.stopping = true;
    if (askFirst) {
      send(c, { type: 'stop' });
      if (await exitedWithin(c, stopTimeout)) return;
    }
    c.proc.kill();
    if (await exitedWithin(c, 2_000)) return;
    const pid = c.proc.pid;
    if (pid !== undefined) killHard(pid);
    await exitedWithin(c, 2_000);
  };

  const scheduleRestart = (reason: string) => {
    crashes++;
    if (crashes >= MAX_CRASHES) {
      setState({ kind: 'error', reason: `The server stopped ${crashes} times in a row; last: ${reason}` });
      return;
    }
    setState({ kind: 'restarting', reason });
    const delay = Math.min(firstDelay * 2 ** (crashes - 1), MAX_RESTART_DELAY_MS);
    restartTimer = setTimeout(() => {
      restartTimer = undefined;
      if (inUse && state.kind === 'restarting') void serial(() => doStart(inUse!, undefined, true));
    }, delay);
    restartTimer.unref();
  };

  const spawn = (settings: DesktopSettings, file: string): Child => {
    const proc = options.fork(options.entry, [file], {
      env: { ...options.env, ...secretEnv(settings) },
      execArgv: [...(options.execArgv ?? [])],
      stdio: 'pipe',
      serviceName: 'Pier server',
    });
    const c: Child = {
      proc,
      exited: new Promise<number>((resolve) => proc.on('exit', resolve)),
      stopping: false,
      running: false,
      startedAt: Date.now(),
      tail: '',
      tokens: new Map(),
    };
    proc.stdout?.on('data', (chunk: Buffer) => options.output?.(chunk));
    // a crash says why on stderr (an uncaught error, a native abort)
    proc.stderr?.on('data', (chunk: Buffer) => {
      options.output?.(chunk);
      c.tail = (c.tail + chunk.toString('utf8')).slice(-TAIL_BYTES);
    });
    proc.on('message', (raw) => {
      const m = raw as ServerMessage;
      if (m.type === 'event') for (const l of [...eventListeners]) l(m.event);
      else if (m.type === 'token') c.tokens.get(m.id)?.(m);
    });
    void c.exited.then((code) => {
      for (const answer of c.tokens.values()) answer({ type: 'token', id: 0, token: null, error: 'The server stopped.' });
      if (child !== c) return;
      child = undefined;
      limits = undefined;
      if (c.stopping || !c.running) return;
      const ranFor = Date.now() - c.startedAt;
      if (ranFor >= STABLE_MS) crashes = 0;
      const said = lastLine(c.tail);
      scheduleRestart(`The server stopped unexpectedly (${exitText(code)})${said ? `: ${said}` : ''}`);
    });
    return c;
  };

  /** Resolves with the state the new process reached: running, or why not. */
  const started = (c: Child, initialAdmin: { login: string; password: string } | undefined): Promise<HostState> =>
    new Promise<HostState>((resolve) => {
      const timer = setTimeout(() => {
        void end(c, false);
        resolve({ kind: 'error', reason: `The server did not start within ${Math.round(startTimeout / 1000)} s.` });
      }, startTimeout);
      timer.unref();
      const done = (s: HostState) => {
        clearTimeout(timer);
        resolve(s);
      };
      c.proc.on('message', (raw) => {
        const m = raw as ServerMessage;
        if (m.type === 'hello') send(c, { type: 'start', initialAdmin: initialAdmin ?? null });
        else if (m.type === 'running') {
          c.running = true;
          c.startedAt = Date.now();
          limits = m.limits;
          done({ kind: 'running', port: m.port, localUrl: `http://${LOCAL_HOST}:${m.port}` });
        } else if (m.type === 'failed') {
          c.stopping = true;
          done({ kind: 'error', reason: m.reason });
        }
      });
      void c.exited.then((code) => {
        const said = lastLine(c.tail);
        done({ kind: 'error', reason: `The server stopped while starting (${exitText(code)})${said ? `: ${said}` : ''}` });
      });
    });

  const doStop = async () => {
    clearTimeout(restartTimer);
    restartTimer = undefined;
    const c = child;
    child = undefined;
    limits = undefined;
    if (c) await end(c, true);
    setState({ kind: 'stopped' });
  };

  const doStart = async (settings: DesktopSettings, initialAdmin?: { login: string; password: string }, afterCrash = false): Promise<HostState> => {
    clearTimeout(restartTimer);
    restartTimer = undefined;
    if (child) await doStop();
    if (!afterCrash) crashes = 0;
    inUse = structuredClone(settings);
    setState({ kind: 'starting' });
    try {
      // the server's data directory: private (the server refuses one others can write to)
      await mkdir(dataDir, { recursive: true, mode: 0o700 });
      if (settings.receivedFolder !== '') await mkdir(settings.receivedFolder, { recursive: true });
      const file = join(dataDir, CONFIG_FILE);
      await writeFile(file, renderServerConfig(settings, dataDir), { mode: 0o600 });
      const c = spawn(settings, file);
      child = c;
      const s = await started(c, initialAdmin);
      if (s.kind === 'error') {
        if (child === c) child = undefined;
        if (afterCrash) {
          scheduleRestart(s.reason);
          return state;
        }
      }
      setState(s);
      return s;
    } catch (e) {
      const failed: HostState = { kind: 'error', reason: e instanceof Error ? e.message : String(e) };
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
    stop(options) {
      // a quit does not wait for a start in progress: its process is ended, then the stop runs
      if (options?.abortStart && state.kind === 'starting' && child) void end(child, false);
      return serial(doStop);
    },
    restart: (settings) => serial(() => doStart(settings)),
    tokenFor(account) {
      const c = child;
      if (!c || state.kind !== 'running') return Promise.reject(new Error('The server is not running.'));
      const id = nextToken++;
      return new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => answer({ type: 'token', id, token: null, error: 'The server did not answer.' }), TOKEN_TIMEOUT_MS);
        const answer = (m: Extract<ServerMessage, { type: 'token' }>) => {
          clearTimeout(timer);
          c.tokens.delete(id);
          if (m.token !== null) resolve(m.token);
          else reject(new Error(m.error ?? 'No token.'));
        };
        c.tokens.set(id, answer);
        send(c, { type: 'token', id, account });
      });
    },
    settingsInUse: () => (inUse ? structuredClone(inUse) : undefined),
    limits: () => limits,
  };
};
