/**
 * A bounded pool of connections to one daemon: at most `max` at once,
 * callers wait for a free one (up to `WAIT_TIMEOUTS` daemon timeouts; the
 * daemon's timeout starts only when a connection is theirs, so a busy but
 * healthy daemon is not taken for a slow one), idle connections are reused and retired before the
 * daemon's own idle timeout, dead ones replaced.
 */
import type { Clock } from '../../common/clock.js';
import { assertCommandLine } from './command-line.js';
import { DaemonConnection, DaemonError, type ConnectOptions } from './connection.js';
import type { Reply } from './reply.js';

export interface PoolOptions extends ConnectOptions {
  max: number;
  /** the idle ages and the resend deadline are read from it */
  clock: Clock;
  /** an unused connection older than this is closed (MPD drops clients after `connection_timeout`, 60 s by default) */
  maxIdleMs?: number;
}

/** How many daemon timeouts a caller waits for a free connection. */
const WAIT_TIMEOUTS = 4;

interface Idle {
  conn: DaemonConnection;
  since: number;
}

export class DaemonPool {
  private readonly idle: Idle[] = [];
  private readonly waiters: Array<() => void> = [];
  private inUse = 0;
  private closed = false;
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly o: PoolOptions) {
    const maxIdle = o.maxIdleMs ?? 45_000;
    this.sweeper = setInterval(() => {
      const now = o.clock.now();
      for (let i = this.idle.length - 1; i >= 0; i--) {
        const e = this.idle[i]!;
        if (!e.conn.alive || now - e.since > maxIdle) {
          this.idle.splice(i, 1);
          e.conn.close();
        }
      }
    }, Math.max(1000, Math.min(maxIdle / 3, 15_000)));
    this.sweeper.unref();
  }

  /** Connections currently open (busy and idle). */
  get size(): number {
    return this.inUse + this.idle.length;
  }

  /**
   * Runs one command on a pooled connection. `keep: false` closes the
   * connection afterwards instead of returning it (for commands that change
   * the connection's state, such as `password` or `tagtypes clear`).
   * Rejects with `DaemonError` (`unavailable` or `timeout`), and with
   * `UnsafeCommandError` before taking a connection for a command that is
   * not one line or one command list.
   */
  async run(command: string | Buffer, keep = true): Promise<Reply> {
    assertCommandLine(command);
    await this.acquireSlot();
    // a command lost with a dropped idle connection is sent again only within one timeout
    const deadline = this.o.clock.now() + this.o.timeoutMs;
    try {
      let reused = this.takeIdle();
      let conn = reused ?? (await this.connect());
      for (;;) {
        try {
          const reply = await conn.send(command, this.o.timeoutMs);
          if (keep && conn.alive && !this.closed) this.idle.push({ conn, since: this.o.clock.now() });
          else conn.close();
          return reply;
        } catch (e) {
          // A reused connection that the daemon had dropped before our command arrived:
          // the command never ran, so it is safe to send it once more on a fresh one.
          if (reused && e instanceof DaemonError && e.noAnswer && this.o.clock.now() < deadline) {
            reused = this.takeIdle();
            conn = reused ?? (await this.connect());
            continue;
          }
          throw e;
        }
      }
    } finally {
      this.releaseSlot();
    }
  }

  /** A connection outside the pool's bound (for a WebSocket that keeps it for its lifetime). */
  dedicated(): Promise<DaemonConnection> {
    return DaemonConnection.open(this.o);
  }

  close(): void {
    this.closed = true;
    clearInterval(this.sweeper);
    for (const e of this.idle.splice(0)) e.conn.close();
  }

  private connect(): Promise<DaemonConnection> {
    if (this.closed) return Promise.reject(new DaemonError('unavailable', 'The player gateway is shutting down.'));
    return DaemonConnection.open(this.o);
  }

  private takeIdle(): DaemonConnection | undefined {
    while (this.idle.length > 0) {
      const e = this.idle.pop()!;
      if (e.conn.alive) return e.conn;
    }
    return undefined;
  }

  private acquireSlot(): Promise<void> {
    if (this.inUse < this.o.max) {
      this.inUse++;
      return Promise.resolve();
    }
    const wait = WAIT_TIMEOUTS * this.o.timeoutMs;
    return new Promise((resolve, reject) => {
      const grant = () => {
        clearTimeout(timer);
        this.inUse++;
        resolve();
      };
      const timer = setTimeout(() => {
        const i = this.waiters.indexOf(grant);
        if (i >= 0) this.waiters.splice(i, 1);
        reject(new DaemonError('timeout', `All ${this.o.max} connections to the music player daemon stayed busy for ${wait} ms.`));
      }, wait);
      this.waiters.push(grant);
    });
  }

  private releaseSlot(): void {
    this.inUse--;
    const next = this.waiters.shift();
    if (next) next();
  }
}
