// Regression: the door refused command words the daemon accepts (`bogus3f`, `statUS`,
// `a1`: letters after the first in any case, digits) with its own 400 Error instead of
// the daemon's ACK, and let through words the daemon answers by dropping the connection
// (`_x`, a word that starts with `_`): the pooled connection was lost, the pool sent the
// command again on a fresh one, and the caller got 502. A real mpd sits behind a proxy
// that records every line it receives and every connection it drops, so a test sees
// what reached the daemon and how often.
import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMpd, type MpdInstance } from '../../support/mpd.js';
import { playerConfig } from '../../support/mpd-server.js';
import { openPlayerSocket, type Envelope } from '../../support/player-socket.js';
import { ADMIN, startServer, type TestServer } from '../../support/server.js';
import { delay } from '../../support/system.js';

/** A proxy in front of the daemon: the lines it was sent, and how many connections it closed itself. */
interface DaemonProxy {
  port: number;
  lines: string[];
  dropped: number;
  reset(): void;
  close(): void;
}

const proxyTo = async (target: number): Promise<DaemonProxy> => {
  const state = { lines: [] as string[], dropped: 0 };
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const daemon = connect({ host: '127.0.0.1', port: target });
    sockets.add(client).add(daemon);
    let pending = '';
    let clientEnded = false;
    client.on('data', (d) => {
      pending += d.toString('latin1');
      for (let i = pending.indexOf('\n'); i >= 0; i = pending.indexOf('\n')) {
        state.lines.push(pending.slice(0, i));
        pending = pending.slice(i + 1);
      }
      daemon.write(d);
    });
    daemon.on('data', (d) => client.write(d));
    client.on('end', () => {
      clientEnded = true;
      daemon.end();
    });
    daemon.on('end', () => {
      if (!clientEnded) state.dropped++;
      client.end();
    });
    client.on('error', () => daemon.destroy());
    daemon.on('error', () => client.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    port: (server.address() as { port: number }).port,
    get lines() {
      return state.lines;
    },
    get dropped() {
      return state.dropped;
    },
    reset() {
      state.lines = [];
      state.dropped = 0;
    },
    close() {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
};

describe('the door refuses only what the daemon would not read as a command', () => {
  let mpd: MpdInstance;
  let proxy: DaemonProxy;
  let s: TestServer;
  let token: string;

  beforeAll(async () => {
    mpd = await startMpd();
    proxy = await proxyTo(mpd.port);
    s = await startServer({
      config: playerConfig(mpd, { connections: { default: { host: '127.0.0.1', port: proxy.port, timeout: '3 seconds', 'max-connections': 3 } } }),
    });
    token = await s.login(ADMIN.login, ADMIN.password);
  });
  afterAll(async () => {
    await s?.stop();
    proxy?.close();
    await mpd?.dispose();
  });
  beforeEach(async () => {
    // a pooled connection to reuse, so a dropped one would be replaced and the command sent again
    expect((await post('ping')).status).toBe(200);
    proxy.reset();
  });

  const post = (command: string) => s.request<Envelope>('POST', '/api/v1/player', { command }, { token });
  const sentLines = (line: string) => proxy.lines.filter((l) => l === line).length;

  it.each(['bogus3f', 'statUS', 'a1', 'x1_', 'bogus3f with "an argument"'])('passes %j to the daemon once and answers its ACK 5 (400 Ack)', async (command) => {
    const res = await post(command);
    expect({ status: res.status, body: res.body }).toEqual({
      status: 400,
      body: { success: false, type: 'Ack', ack: { code: { value: 5, name: 'unknown_command' }, position: 0, command: '', message: expect.stringMatching(/^unknown command/) } },
    });
    expect({ sent: sentLines(command), dropped: proxy.dropped }).toEqual({ sent: 1, dropped: 0 });
  });

  it.each([
    ['a word starting with _', '_x'],
    ['a hyphen in the word', 'bogus-ws'],
    ['upper-case first letter', 'STATUS'],
    ['a leading space', ' status'],
    ['a digit first', '1status'],
    ['a letter outside ASCII', 'statusé'],
    ['form feed as separator', 'status\f'],
    ['vertical tab as separator', 'find\vany x'],
    ['another control character as separator', 'status\u0001'],
    ['a control character in an argument', 'find any x\u001b'],
  ])('refuses %s (%j) at the door: 400 Error, nothing sent, no connection lost', async (_what, command) => {
    const res = await post(command);
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { success: false, type: 'Error', error: { message: expect.any(String) } } });
    await delay(50);
    expect({ lines: proxy.lines, dropped: proxy.dropped }).toEqual({ lines: [], dropped: 0 });
  });

  it('still passes a tab between words and trailing spaces', async () => {
    expect((await post('status\t')).body.type).toBe('StatusAnswer');
    expect((await post('status  ')).body.type).toBe('StatusAnswer');
    expect((await post('find\tany\t"x"')).body.type).toBe('SongListAnswer');
  });

  it('passes an unknown word inside a command list and answers the ACK with the answers before it', async () => {
    const ok = await post('command_list_ok_begin\nping\nbogus3f\nping\ncommand_list_end');
    expect(ok.status).toBe(400);
    expect(ok.body).toMatchObject({ type: 'Ack', ack: { code: { value: 5 }, position: 1 }, result: { answers: [{ type: 'Empty', result: {} }] } });
    const plain = await post('command_list_begin\nstatUS\ncommand_list_end');
    expect(plain.body).toMatchObject({ type: 'Ack', ack: { code: { value: 5 }, position: 0 } });
    expect({ dropped: proxy.dropped }).toEqual({ dropped: 0 });
  });

  it('refuses a command list holding a word the daemon drops the connection for; nothing is sent', async () => {
    for (const command of ['command_list_begin\nping\n_x\ncommand_list_end', 'command_list_ok_begin\nping\nstatus\f\ncommand_list_end', 'command_list_begin\nSTATUS\ncommand_list_end']) {
      const res = await post(command);
      expect({ status: res.status, type: res.body.type }, JSON.stringify(command)).toEqual({ status: 400, type: 'Error' });
    }
    expect({ lines: proxy.lines, dropped: proxy.dropped }).toEqual({ lines: [], dropped: 0 });
  });

  // Regression: `close` inside a command list went to the daemon, which ended the
  // connection in the middle of the list: 502, and the pooled connection was lost.
  it('refuses close inside a command list like idle: 400 Error, nothing sent, no connection lost', async () => {
    for (const command of ['command_list_begin\nping\nclose\ncommand_list_end', 'command_list_ok_begin\nclose\ncommand_list_end', 'command_list_begin\nclose "x"\nping\ncommand_list_end']) {
      const res = await post(command);
      expect({ status: res.status, body: res.body }, JSON.stringify(command)).toEqual({ status: 400, body: { success: false, type: 'Error', error: { message: expect.stringMatching(/close/) } } });
    }
    await delay(50);
    expect({ lines: proxy.lines, dropped: proxy.dropped }).toEqual({ lines: [], dropped: 0 });
    // on its own, `close` has nothing to end over HTTP: Empty, nothing sent
    expect((await post('close')).body).toEqual({ success: true, type: 'Empty', result: {} });
    expect({ lines: proxy.lines, dropped: proxy.dropped }).toEqual({ lines: [], dropped: 0 });
  });

  it('answers the same over a WebSocket: the daemon ACK for unknown words, an Error frame for refused ones, the socket stays open', async () => {
    const { ws, frames, next } = await openPlayerSocket(`${s.url.replace('http', 'ws')}/api/v1/player`, { 'Service-Auth': token });
    try {
      for (const command of ['bogus3f', '_x', 'bogus-ws', 'status\f', 'command_list_begin\nping\nstatUS\ncommand_list_end', 'ping']) ws.send(JSON.stringify({ command }));
      await next('Empty', 0);
      expect(frames.map((f) => (f.type === 'Ack' ? `Ack ${String((f.ack!['code'] as { value: number }).value)}` : f.type))).toEqual([
        'Ack 5',
        'Error',
        'Error',
        'Error',
        'Ack 5',
        'Empty',
      ]);
      expect(ws.readyState).toBe(ws.OPEN);
    } finally {
      ws.terminate();
    }
  });
});
