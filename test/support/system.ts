/**
 * Shared plumbing for the throwaway database starters: running programs,
 * free ports, the install hint, and clean-up when a test process dies.
 */
import { execFile } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';

export const INSTALL_COMMAND =
  'apt-get update && apt-get install -y --no-install-recommends postgresql mariadb-server mariadb-client';

export const isRoot = (): boolean => typeof process.getuid === 'function' && process.getuid() === 0;

export function missingBinary(what: string): Error {
  return new Error(
    `${what} is not installed. Install it with:\n  ${INSTALL_COMMAND}\n` +
      '(npm test runs scripts/ensure-system-deps.mjs first, which does this when run as root.)',
  );
}

/** Runs a program without a shell; rejects with its output when it fails. */
export function run(file: string, args: string[], timeoutMs = 30_000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { timeout: timeoutMs, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${file} ${args.join(' ')} failed: ${error.message}\n${stdout}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export const delay = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Polls `fn` until it returns a truthy value (or fails after `ms`). */
export const eventually = async <T>(fn: () => T | Promise<T>, ms = 5000): Promise<NonNullable<T>> => {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v as NonNullable<T>;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
};

/**
 * True while the process runs. A zombie counts as gone: a daemon that exited is
 * reparented to PID 1, which in a container may take a while to reap it.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // /proc/<pid>/stat: "pid (comm) state ..."; comm may contain spaces and parentheses
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch (e) {
    // gone in between, or no /proc at all (not Linux): then trust kill(0)
    return !((e as NodeJS.ErrnoException).code === 'ENOENT' && process.platform === 'linux');
  }
}

/**
 * If the test process exits without calling stop() (a crash, a timeout), kill
 * the server by its PID and remove its directory, so nothing is left running.
 * Returns a function that cancels the hook once stop() has run.
 */
export function killOnExit(getPid: () => number | undefined, signal: NodeJS.Signals, dir: string): () => void {
  const hook = (): void => {
    const pid = getPid();
    if (pid !== undefined && isAlive(pid)) {
      try {
        process.kill(pid, signal);
      } catch {
        // already gone
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', hook);
  return () => process.removeListener('exit', hook);
}

/** Valid as an unquoted database name on both PostgreSQL and MariaDB. */
export function checkDatabaseName(name: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`invalid test database name ${JSON.stringify(name)}`);
  return name;
}

/** uid and gid of a system user (`postgres`, `mysql`), from /etc/passwd */
export function systemUser(name: string): { uid: number; gid: number } {
  const parts = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${name}:`))
    ?.split(':');
  if (!parts || parts.length < 4) throw missingBinary(`The system user "${name}"`);
  return { uid: Number(parts[2]), gid: Number(parts[3]) };
}

/** A throwaway database server started by a test. */
export interface DatabaseInstance {
  url: string;
  user: string;
  password: string;
  port: number;
  /** a new, empty database in this server */
  createDatabase(name: string): Promise<{ url: string; user: string; password: string }>;
  /** stops the server and removes its directory */
  stop(): Promise<void>;
}

/**
 * The instance object of a started server: creates the first database, and
 * stops the server again when that fails. `stop` runs `stopServer` once.
 */
export async function finishInstance(opts: {
  port: number;
  database: string;
  config: (name: string) => { url: string; user: string; password: string };
  create: (name: string) => Promise<void>;
  stopServer: () => Promise<void>;
}): Promise<DatabaseInstance> {
  const createDatabase = async (name: string) => {
    await opts.create(checkDatabaseName(name));
    return opts.config(name);
  };
  let stopped: Promise<void> | undefined;
  const instance: DatabaseInstance = {
    ...opts.config(opts.database),
    port: opts.port,
    createDatabase,
    stop: () => (stopped ??= opts.stopServer()),
  };
  try {
    await createDatabase(opts.database);
  } catch (e) {
    await instance.stop();
    throw e;
  }
  return instance;
}
