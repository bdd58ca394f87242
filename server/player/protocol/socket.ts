/**
 * The byte stream to a daemon, behind a small interface: the real one is a
 * TCP socket; unit tests plug in a scripted fake to feed garbage answers.
 */
import { connect } from 'node:net';

export interface DaemonSocket {
  write(data: string | Buffer): void;
  /** ends politely (after pending writes) */
  end(): void;
  /** closes at once */
  destroy(): void;
  onData(cb: (chunk: Buffer) => void): void;
  /** called once when the stream is gone, with the error that ended it, if any */
  onClose(cb: (error?: Error) => void): void;
}

/** Opens a stream to `host:port`; rejects when it cannot be opened within `timeoutMs`. */
export type DaemonDialer = (host: string, port: number, timeoutMs: number) => Promise<DaemonSocket>;

export class ConnectError extends Error {
  constructor(
    message: string,
    readonly timedOut: boolean,
  ) {
    super(message);
    this.name = 'ConnectError';
  }
}

/** The real dialer: TCP with Nagle off (replies are small and latency matters). */
export const tcpDialer: DaemonDialer = (host, port, timeoutMs) =>
  new Promise((resolve, reject) => {
    const s = connect({ host, port, noDelay: true });
    const timer = setTimeout(() => {
      s.destroy();
      reject(new ConnectError(`Connecting to the music player daemon at ${host}:${port} timed out.`, true));
    }, timeoutMs);
    const fail = (e: Error) => {
      clearTimeout(timer);
      reject(new ConnectError(`The music player daemon at ${host}:${port} is not reachable (${(e as NodeJS.ErrnoException).code ?? e.message}).`, false));
    };
    s.once('error', fail);
    s.once('connect', () => {
      clearTimeout(timer);
      s.off('error', fail);
      let closeError: Error | undefined;
      s.on('error', (e) => {
        closeError = e;
      });
      resolve({
        write: (data) => {
          s.write(data);
        },
        end: () => {
          s.end();
        },
        destroy: () => {
          s.destroy();
        },
        onData: (cb) => {
          s.on('data', cb);
        },
        onClose: (cb) => {
          s.once('close', () => cb(closeError));
        },
      });
    });
  });
