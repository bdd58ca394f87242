import { spawn, type ChildProcess } from 'node:child_process';
import type { Logger } from '../../../common/log.js';
import type { Config } from '../../../config/types.js';
import { renderCredentials } from './http.module.js';
import { external, failed, type LoginModule } from './login-module.js';

type RunResult = { exitCode: number } | { reason: string };

/**
 * Runs `argv` without a shell, stdin and output discarded, killing it (and,
 * on POSIX, its process group) after `timeoutMs`.
 */
const run = (argv: string[], timeoutMs: number): Promise<RunResult> =>
  new Promise((resolve) => {
    const [program, ...args] = argv;
    if (!program) return resolve({ reason: 'no program configured' });
    const posix = process.platform !== 'win32';
    let child: ChildProcess;
    try {
      child = spawn(program, args, { shell: false, stdio: 'ignore', detached: posix, windowsHide: true });
    } catch (e) {
      // e.g. a NUL character in an argument
      return resolve({ reason: (e as NodeJS.ErrnoException).code ?? 'spawn failed' });
    }
    const timer = setTimeout(() => {
      try {
        if (posix && child.pid) process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
      settle({ reason: `timeout after ${timeoutMs} ms` });
    }, timeoutMs);
    const settle = (r: RunResult) => {
      clearTimeout(timer);
      resolve(r); // later calls are no-ops
    };
    child.once('error', (e: NodeJS.ErrnoException) => settle({ reason: e.code ?? e.name }));
    child.once('exit', (code, signal) => settle(code === null ? { reason: `killed by ${signal}` } : { exitCode: code }));
  });

/**
 * Whether the credentials made an option of an argument: it starts with `-`
 * although its template does not (`{{pass}}` with the password `--help`), and
 * it comes before a `--` argument of the template, after which programs that
 * follow the convention read operands only. Ending options with `--` only
 * helps programs that honour it, so for every other program the attempt is
 * refused instead of run: a password such as `--version` must never make a
 * program exit with its success code.
 */
const injectsOption = (templates: readonly string[], argv: readonly string[]): boolean => {
  const end = templates.indexOf('--');
  return argv.some((arg, i) => (end < 0 || i < end) && arg.startsWith('-') && !(templates[i] ?? '').startsWith('-'));
};

/**
 * The `command` module: runs `program` (executable, then arguments; each a
 * mustache template with `{{user}}`, `{{pass}}`, substituted verbatim) without
 * a shell. Exit code `success` is a success (source `extern`); another code,
 * a start failure or the `timeout` is a failure. It always answers. A login
 * or password that would turn into an option (see `injectsOption`) fails
 * without running the program.
 */
export const commandModule = (cfg: Config['backend']['auth']['command'], log: Logger): LoginModule => ({
  name: 'command',
  order: cfg.order,
  async check(login, password) {
    const argv = cfg.program.map((part) => renderCredentials(part, login, password, (v) => v));
    if (injectsOption(cfg.program, argv)) {
      log.warn('Login refused: the login or password would be an option of the authentication command', { login });
      return failed;
    }
    const result = await run(argv, cfg.timeout);
    if ('exitCode' in result && result.exitCode === cfg.success) return external(login);
    const why = 'exitCode' in result ? { exitCode: result.exitCode } : { reason: result.reason };
    log.warn('Login refused by the authentication command', { login, program: cfg.program[0], ...why });
    return failed;
  },
});
