/**
 * One connection to a daemon: greeting, password, commands answered in order
 * (first in, first out), per-command timeout, and `idle`/`noidle`.
 */
import { AppError } from '../../common/errors.js';
import { assertCommandLine, framingOf } from './command-line.js';
import { ProtocolError, quoteArg, ReplyReader, type Reply } from './reply.js';
import { ConnectError, type DaemonDialer, type DaemonSocket } from './socket.js';

const newline = Buffer.from('\n');

export type DaemonErrorKind = 'unavailable' | 'timeout';

/** The daemon could not be reached, went away, said something unreadable, or did not answer in time. */
export class DaemonError extends AppError {
  constructor(
    readonly kind: DaemonErrorKind,
    message: string,
    /** true when the connection was lost before a single byte of the answer arrived */
    readonly noAnswer = false,
  ) {
    super(kind, message);
    this.name = 'DaemonError';
  }
}

export interface ConnectOptions {
  dialer: DaemonDialer;
  host: string;
  port: number;
  /** sent with `password` right after the greeting; empty: none */
  password: string;
  timeoutMs: number;
}

interface Pending {
  resolve(reply: Reply): void;
  reject(error: DaemonError): void;
  timer: NodeJS.Timeout | undefined;
  /** bytes received when the command was written */
  receivedAtWrite: number;
}

export class DaemonConnection {
  private readonly pending: Pending[] = [];
  private readonly reader: ReplyReader;
  private received = 0;
  private closed = false;
  private closeListeners: Array<(error: DaemonError) => void> = [];
  private idling = false;
  version = '';

  private constructor(
    private readonly socket: DaemonSocket,
    private readonly label: string,
    greeted: (version: string) => void,
  ) {
    this.reader = new ReplyReader(
      (reply) => this.settle(reply),
      (version) => {
        this.version = version;
        greeted(version);
      },
    );
    socket.onData((chunk) => {
      this.received += chunk.length;
      try {
        this.reader.push(chunk);
      } catch (e) {
        const msg = e instanceof ProtocolError ? e.message : String(e);
        this.fail(new DaemonError('unavailable', `The music player daemon at ${label} sent an unreadable answer: ${msg}.`));
      }
    });
    socket.onClose((error) => {
      const why = error ? ` (${(error as NodeJS.ErrnoException).code ?? error.message})` : '';
      this.fail(new DaemonError('unavailable', `The music player daemon at ${label} closed the connection${why}.`));
    });
  }

  /**
   * Connects, reads the greeting and sends the password. Rejects with a
   * `DaemonError`: `unavailable` when unreachable or the password is refused,
   * `timeout` when the daemon does not greet within the timeout.
   */
  static async open(o: ConnectOptions): Promise<DaemonConnection> {
    const label = `${o.host}:${o.port}`;
    let socket: DaemonSocket;
    try {
      socket = await o.dialer(o.host, o.port, o.timeoutMs);
    } catch (e) {
      if (e instanceof ConnectError) throw new DaemonError(e.timedOut ? 'timeout' : 'unavailable', e.message);
      throw new DaemonError('unavailable', `The music player daemon at ${label} is not reachable (${String(e)}).`);
    }
    let conn!: DaemonConnection;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new DaemonError('timeout', `The music player daemon at ${label} did not greet within ${o.timeoutMs} ms.`));
        conn.destroy();
      }, o.timeoutMs);
      conn = new DaemonConnection(socket, label, () => {
        clearTimeout(timer);
        resolve();
      });
      conn.onClose((e) => {
        clearTimeout(timer);
        reject(e);
      });
    });
    if (o.password) {
      const reply = await conn.send(`password ${quoteArg(o.password)}`, o.timeoutMs);
      if (!reply.ok) {
        conn.destroy();
        throw new DaemonError('unavailable', `The music player daemon at ${label} refused the configured password: ${reply.ack.message}`);
      }
    }
    return conn;
  }

  get alive(): boolean {
    return !this.closed;
  }

  /** true between `idle()` and the end of its answer */
  get isIdle(): boolean {
    return this.idling;
  }

  /**
   * Writes one command (a single line or a whole command list; the final
   * newline is added) and resolves with its reply. A timeout rejects with
   * `timeout` and closes the connection, since its answers would be out of step.
   * Throws `UnsafeCommandError`, writing nothing, for a command with a line
   * break (other than between the lines of a command list), a CR or a NUL.
   * A `Buffer` is sent as it is (names that are not valid UTF-8).
   */
  send(command: string | Buffer, timeoutMs: number): Promise<Reply> {
    const text = assertCommandLine(command);
    if (this.closed) return Promise.reject(new DaemonError('unavailable', `The connection to ${this.label} is closed.`, true));
    return new Promise((resolve, reject) => {
      const p: Pending = { resolve, reject, timer: undefined, receivedAtWrite: this.received };
      if (timeoutMs > 0) p.timer = this.timer(timeoutMs);
      this.pending.push(p);
      this.reader.expect(framingOf(text));
      this.write(command);
    });
  }

  /** Sends `idle` (all subsystems); resolves when something changed or `noidle` ended it. No timeout. */
  idle(): Promise<Reply> {
    this.idling = true;
    return this.send('idle', 0).finally(() => {
      this.idling = false;
    });
  }

  /**
   * Ends a pending `idle` early; its reply then carries the changes so far.
   * From now on the idle's answer is due within `timeoutMs`, like any
   * command's. No-op when not idling.
   */
  noidle(timeoutMs: number): void {
    if (!this.idling || this.closed) return;
    const p = this.pending[0];
    if (p && !p.timer && timeoutMs > 0) p.timer = this.timer(timeoutMs);
    this.write('noidle');
  }

  /** `listener` is called once when the connection is lost or closed. */
  onClose(listener: (error: DaemonError) => void): void {
    if (this.closed) listener(new DaemonError('unavailable', `The connection to ${this.label} is closed.`));
    else this.closeListeners.push(listener);
  }

  /** Says goodbye to the daemon and closes. */
  close(): void {
    if (this.closed) return;
    if (this.idling) this.write('noidle');
    this.write('close');
    this.socket.end();
    this.fail(new DaemonError('unavailable', `The connection to ${this.label} was closed.`), false);
  }

  destroy(): void {
    if (this.closed) return;
    this.socket.destroy();
    this.fail(new DaemonError('unavailable', `The connection to ${this.label} was closed.`));
  }

  private timer(timeoutMs: number): NodeJS.Timeout {
    return setTimeout(() => {
      this.fail(new DaemonError('timeout', `The music player daemon at ${this.label} did not answer within ${timeoutMs} ms.`));
    }, timeoutMs);
  }

  /**
   * The one place that writes to the daemon, ending the command with a line
   * feed. Only commands `send` has checked and the constant `noidle` and
   * `close` come here.
   */
  private write(command: string | Buffer): void {
    this.socket.write(typeof command === 'string' ? `${command}\n` : Buffer.concat([command, newline]));
  }

  private settle(reply: Reply): void {
    const p = this.pending.shift();
    if (!p) {
      this.fail(new DaemonError('unavailable', `The music player daemon at ${this.label} sent an answer nobody asked for.`));
      return;
    }
    if (p.timer) clearTimeout(p.timer);
    p.resolve(reply);
  }

  private fail(error: DaemonError, destroySocket = true): void {
    if (this.closed) return;
    this.closed = true;
    if (destroySocket) this.socket.destroy();
    for (const p of this.pending.splice(0)) {
      if (p.timer) clearTimeout(p.timer);
      const untouched = error.kind === 'unavailable' && p.receivedAtWrite === this.received;
      p.reject(untouched ? new DaemonError(error.kind, error.message, true) : error);
    }
    for (const l of this.closeListeners.splice(0)) l(error);
  }
}
