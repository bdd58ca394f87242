/**
 * Electron's `utilityProcess.fork` with Node's `child_process.fork`: a real child
 * process running the real entry, with the documented shape of `UtilityProcess`
 * (`postMessage` with structured clone, `message`, `exit` with a code, `kill()` with
 * SIGTERM, `pid` undefined once it exited, `stdout`/`stderr` for `stdio: 'pipe'`).
 * The child sees Node's IPC channel instead of `process.parentPort`; `PIER_HOST=ipc`
 * tells the server's entry to use it (server/hosted.ts).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { constants } from 'node:os';
import type { ForkUtility, UtilityLike } from '../../main/server-host.js';

class ForkedUtility extends EventEmitter implements UtilityLike {
  constructor(private readonly child: ChildProcess) {
    super();
    child.on('message', (m) => this.emit('message', m));
    child.on('exit', (code, signal) => {
      // a POSIX shell's code for a signal, as waitpid reports it to Electron
      this.emit('exit', code ?? 128 + (signal ? constants.signals[signal] : 0));
    });
  }
  get pid(): number | undefined {
    return this.child.exitCode === null && this.child.signalCode === null ? this.child.pid : undefined;
  }
  get stdout() {
    return this.child.stdout;
  }
  get stderr() {
    return this.child.stderr;
  }
  postMessage(message: unknown): void {
    if (!this.child.connected) throw new Error('The process is gone.');
    // like Electron's port, a message to a process that is going away is dropped
    this.child.send(message as object, () => undefined);
  }
  kill(): boolean {
    return this.child.kill('SIGTERM');
  }
}

/** Every process started here, so tests can crash one and clean up the rest. */
export const forked: ForkedUtility[] = [];

export const forkAsUtility: ForkUtility = (modulePath, args, options) => {
  const child = fork(modulePath, args, {
    env: { ...options.env, PIER_HOST: 'ipc' },
    execArgv: options.execArgv,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    serialization: 'advanced',
  });
  const u = new ForkedUtility(child);
  forked.push(u);
  return u;
};
