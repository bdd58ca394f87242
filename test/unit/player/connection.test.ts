// The daemon socket is replaced by a scripted fake here only to feed what a real
// mpd never sends (garbage, silence, dropped connections); everything else is
// tested against a real mpd in test/api/player.
import { describe, expect, it, vi } from 'vitest';
import { manualClock, systemClock } from '../../../server/common/clock.js';
import { UnsafeCommandError } from '../../../server/player/protocol/command-line.js';
import { DaemonConnection, DaemonError } from '../../../server/player/protocol/connection.js';
import { quoteArg } from '../../../server/player/protocol/reply.js';
import { DaemonPool } from '../../../server/player/protocol/pool.js';
import { ConnectError, type DaemonDialer, type DaemonSocket } from '../../../server/player/protocol/socket.js';

/** A fake daemon: `respond` maps each written line to what it sends back (undefined: silence). */
class FakeSocket implements DaemonSocket {
  written: string[] = [];
  /** every write as it was made */
  raw: string[] = [];
  private data?: (c: Buffer) => void;
  private closeCb?: (e?: Error) => void;
  destroyed = false;
  constructor(
    private readonly respond: (line: string, sock: FakeSocket) => string | undefined,
    greeting = 'OK MPD 0.23.5\n',
  ) {
    setImmediate(() => this.emit(greeting));
  }
  emit(text: string) {
    if (!this.destroyed) this.data?.(Buffer.from(text));
  }
  write(data: string) {
    this.raw.push(data);
    for (const line of data.split('\n').filter(Boolean)) {
      this.written.push(line);
      const answer = this.respond(line, this);
      if (answer !== undefined) setImmediate(() => this.emit(answer));
    }
  }
  end() {
    this.destroy();
  }
  destroy() {
    if (this.destroyed) return;
    this.destroyed = true;
    setImmediate(() => this.closeCb?.());
  }
  onData(cb: (c: Buffer) => void) {
    this.data = cb;
  }
  onClose(cb: (e?: Error) => void) {
    this.closeCb = cb;
  }
}

const dialerOf = (make: () => FakeSocket, sockets: FakeSocket[] = []): DaemonDialer => async () => {
  const s = make();
  sockets.push(s);
  return s;
};
const opts = (dialer: DaemonDialer, extra: { password?: string; timeoutMs?: number } = {}) => ({
  dialer,
  host: 'fake',
  port: 1,
  password: extra.password ?? '',
  timeoutMs: extra.timeoutMs ?? 300,
});

describe('a daemon connection', () => {
  it('reads the greeting and sends the password first', async () => {
    const sockets: FakeSocket[] = [];
    const conn = await DaemonConnection.open(opts(dialerOf(() => new FakeSocket(() => 'OK\n'), sockets), { password: 'p"w' }));
    expect(conn.version).toBe('0.23.5');
    expect(sockets[0]!.written).toEqual(['password "p\\"w"']);
    conn.destroy();
  });

  it('rejects a greeting that is not a daemon', async () => {
    const dialer = dialerOf(() => new FakeSocket(() => undefined, 'SSH-2.0-OpenSSH\n'));
    await expect(DaemonConnection.open(opts(dialer))).rejects.toMatchObject({ kind: 'unavailable', message: expect.stringMatching(/unreadable/) });
  });

  it('rejects a daemon that never greets with a timeout', async () => {
    const dialer = dialerOf(() => new FakeSocket(() => undefined, ''));
    await expect(DaemonConnection.open(opts(dialer, { timeoutMs: 50 }))).rejects.toMatchObject({ kind: 'timeout' });
  });

  it('reports an unreachable daemon as unavailable', async () => {
    const dialer: DaemonDialer = async () => {
      throw new ConnectError('not reachable (ECONNREFUSED)', false);
    };
    await expect(DaemonConnection.open(opts(dialer))).rejects.toMatchObject({ kind: 'unavailable' });
  });

  it('fails every pending command and closes on garbage in an answer', async () => {
    const conn = await DaemonConnection.open(opts(dialerOf(() => new FakeSocket(() => 'binary: banana\n'))));
    await expect(conn.send('albumart "a" 0', 300)).rejects.toMatchObject({ kind: 'unavailable', message: expect.stringMatching(/unreadable/) });
    expect(conn.alive).toBe(false);
  });

  it('times out a command that gets no answer and closes the connection', async () => {
    const conn = await DaemonConnection.open(opts(dialerOf(() => new FakeSocket(() => undefined))));
    await expect(conn.send('status', 50)).rejects.toMatchObject({ kind: 'timeout' });
    expect(conn.alive).toBe(false);
  });

  it('answers commands in order', async () => {
    const conn = await DaemonConnection.open(opts(dialerOf(() => new FakeSocket((l) => `echo: ${l}\nOK\n`))));
    const [a, b] = await Promise.all([conn.send('one', 300), conn.send('two', 300)]);
    expect(a).toEqual({ ok: true, lines: [{ key: 'echo', value: 'one' }] });
    expect(b).toEqual({ ok: true, lines: [{ key: 'echo', value: 'two' }] });
    conn.destroy();
  });

  it('ends an idle with noidle', async () => {
    const conn = await DaemonConnection.open(
      opts(dialerOf(() => new FakeSocket((l) => (l === 'idle' ? undefined : l === 'noidle' ? 'changed: mixer\nOK\n' : 'OK\n')))),
    );
    const idle = conn.idle();
    expect(conn.isIdle).toBe(true);
    conn.noidle(300);
    expect(await idle).toEqual({ ok: true, lines: [{ key: 'changed', value: 'mixer' }] });
    expect(conn.isIdle).toBe(false);
    conn.destroy();
  });
});

// A line feed inside a command (an album name from a URL) would end the command and
// run the rest as a command of the sender's choosing (`kill`). The one place that
// writes refuses such a command before writing anything; only a command list spans
// several lines.
describe('what may be written to a daemon', () => {
  const openConn = async (sockets: FakeSocket[]) =>
    DaemonConnection.open(opts(dialerOf(() => new FakeSocket(() => 'OK\n'), sockets)));

  it('throws before writing a command with a line feed, CR or NUL', async () => {
    const sockets: FakeSocket[] = [];
    const conn = await openConn(sockets);
    for (const bad of ['find album "x\nkill', 'status\n', 'find album "x\rkill"', 'find album "x\0"', 'status\r\nkill', '', '\n', 'command_list_begin\ncommand_list_end']) {
      expect(() => conn.send(bad, 300), JSON.stringify(bad)).toThrow(UnsafeCommandError);
      expect(() => conn.send(Buffer.from(bad, 'latin1'), 300), `bytes of ${JSON.stringify(bad)}`).toThrow(UnsafeCommandError);
    }
    expect(sockets[0]!.raw).toEqual([]);
    expect(conn.alive).toBe(true);
    conn.destroy();
  });

  it('checks every line of a command list', async () => {
    const sockets: FakeSocket[] = [];
    const conn = await openConn(sockets);
    for (const bad of [
      'command_list_begin\nstatus\n\nkill\ncommand_list_end',
      'command_list_begin\nstatus\r\ncommand_list_end',
      'command_list_begin\nstatus\ncommand_list_begin\ncommand_list_end',
      'command_list_ok_begin\nstatus\nkill',
      'status\ncommand_list_begin\nkill\ncommand_list_end',
    ]) {
      expect(() => conn.send(bad, 300), JSON.stringify(bad)).toThrow(UnsafeCommandError);
    }
    expect(sockets[0]!.raw).toEqual([]);
    await conn.send('command_list_ok_begin\nstatus\nstats\ncommand_list_end', 300);
    expect(sockets[0]!.raw).toEqual(['command_list_ok_begin\nstatus\nstats\ncommand_list_end\n']);
    conn.destroy();
  });

  it('refuses in the pool before taking a connection, and in quoteArg', async () => {
    const sockets: FakeSocket[] = [];
    const pool = new DaemonPool({ ...opts(dialerOf(() => new FakeSocket(() => 'OK\n'), sockets)), max: 1, clock: systemClock });
    await expect(pool.run('find album "x\nkill"')).rejects.toBeInstanceOf(UnsafeCommandError);
    expect(sockets).toHaveLength(0);
    expect(await pool.run('status')).toEqual({ ok: true, lines: [] });
    pool.close();
    for (const bad of ['a\nb', 'a\rb', 'a\0b']) expect(() => quoteArg(bad)).toThrow(UnsafeCommandError);
    expect(quoteArg('a "b" \\ c')).toBe('"a \\"b\\" \\\\ c"');
  });
});

describe('the connection pool', () => {
  it('reuses connections and never opens more than max', async () => {
    const sockets: FakeSocket[] = [];
    const pool = new DaemonPool({ ...opts(dialerOf(() => new FakeSocket(() => 'OK\n'), sockets), { timeoutMs: 1000 }), max: 2, clock: systemClock });
    await Promise.all(Array.from({ length: 10 }, () => pool.run('status')));
    expect(sockets.length).toBeLessThanOrEqual(2);
    await pool.run('status');
    expect(sockets.length).toBeLessThanOrEqual(2);
    pool.close();
  });

  it('replaces a connection the daemon dropped, sending the command again only when it never ran', async () => {
    const sockets: FakeSocket[] = [];
    let first = true;
    const pool = new DaemonPool({
      ...opts(
        dialerOf(
          () =>
            new FakeSocket((_l, sock) => {
              if (first) {
                first = false;
                return 'OK\n';
              }
              if (sockets.indexOf(sock) === 0) {
                sock.destroy(); // dropped by the daemon before answering
                return undefined;
              }
              return 'state: play\nOK\n';
            }),
          sockets,
        ),
      ),
      max: 1,
      clock: systemClock,
    });
    await pool.run('status');
    const r = await pool.run('status');
    expect(r).toEqual({ ok: true, lines: [{ key: 'state', value: 'play' }] });
    expect(sockets).toHaveLength(2);
    pool.close();
  });

  it('does not reuse a connection after a state-changing command', async () => {
    const sockets: FakeSocket[] = [];
    const pool = new DaemonPool({ ...opts(dialerOf(() => new FakeSocket(() => 'OK\n'), sockets)), max: 1, clock: systemClock });
    await pool.run('password "x"', false);
    await pool.run('status');
    expect(sockets).toHaveLength(2);
    expect(sockets[0]!.written).toContain('close');
    pool.close();
  });

  it('frees the slot of a command that timed out for the next caller', async () => {
    const pool = new DaemonPool({ ...opts(dialerOf(() => new FakeSocket((l) => (l === 'slow' ? undefined : 'OK\n'))), { timeoutMs: 100 }), max: 1, clock: systemClock });
    const slow = pool.run('slow').catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 30));
    const next = pool.run('status');
    expect(await slow).toMatchObject({ kind: 'timeout' });
    expect(await next).toEqual({ ok: true, lines: [] });
    expect(await slow).toBeInstanceOf(DaemonError);
    pool.close();
  });

  it('retires an idle connection older than maxIdleMs by its clock', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const sockets: FakeSocket[] = [];
      const clock = manualClock();
      const pool = new DaemonPool({ ...opts(dialerOf(() => new FakeSocket(() => 'OK\n'), sockets)), max: 1, clock, maxIdleMs: 3000 });
      await pool.run('status');
      vi.advanceTimersByTime(1000);
      expect(pool.size).toBe(1);
      clock.advance(3001);
      vi.advanceTimersByTime(1000);
      expect(pool.size).toBe(0);
      pool.close();
    } finally {
      vi.useRealTimers();
    }
  });
});
