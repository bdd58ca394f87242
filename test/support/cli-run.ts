import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The project root: where `npm run serve` runs. */
export const projectRoot = fileURLToPath(new URL('../../', import.meta.url));

export interface CliRun {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  exited: Promise<number | null>;
  /** SIGTERM to the whole process group (npm and the server below it), then waits for the exit */
  stop: () => Promise<void>;
}

/** `cmd args` in its own process group, with only PATH, HOME and `env` in its environment. */
export const run = (cmd: string, args: string[], env: Record<string, string>): CliRun => {
  const child = spawn(cmd, args, {
    cwd: projectRoot,
    detached: true,
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...env },
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    out: () => out,
    err: () => err,
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGTERM');
      await exited;
    },
  };
};

/** `npm run serve` (without its build step: the suite runs on a built tree), with `args` after `--`. */
export const npmServe = (args: string[], env: Record<string, string>): CliRun =>
  run('npm', ['run', '--ignore-scripts', '--silent', 'serve', ...(args.length > 0 ? ['--', ...args] : [])], env);

/** Polls `what` every 50 ms until it matches; throws after `ms`. */
export const waitFor = async (what: () => RegExpExecArray | null, ms = 20_000): Promise<RegExpExecArray> => {
  const until = Date.now() + ms;
  for (;;) {
    const m = what();
    if (m) return m;
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
};

/** The URL a started server prints. */
export const running = (r: CliRun): Promise<string> => waitFor(() => /Pier is running at (http:\/\/\S+)\/app/.exec(r.out())).then((m) => m[1]!);

/** Logs in as the first admin, whose generated password a started server printed. */
export const loginFirstAdmin = (r: CliRun, url: string): Promise<Response> => {
  const [, password] = /password: +(\S+)/.exec(r.out())!;
  return fetch(`${url}/api/v2/open/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: 'admin', password }),
  });
};
