// Regression: a `status` reply the gateway cannot read (no `state`, no playlist
// counters: garbage) became 200 StatusAnswer with `state: "stop"` and zeros, so a
// client took a broken daemon for an idle one. It is 502 `type: Error`, like any
// answer the gateway cannot read. A real mpd never says such a thing, so a scripted
// daemon on loopback answers here; the real one's status stays readable (gateway.test.ts).
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPlayerSocket, type Envelope } from '../../support/player-socket.js';
import { ADMIN, startServer, type TestServer } from '../../support/server.js';

/** Greets like mpd 0.23; `status` gets `statusReply`, `idle` waits for `noidle`, anything else gets `OK`. */
const scriptedDaemon = async (statusReply: string): Promise<{ port: number; close(): void }> => {
  const sockets = new Set<Socket>();
  const server: Server = createServer((sock) => {
    sockets.add(sock);
    sock.write('OK MPD 0.23.5\n');
    let pending = '';
    let inList = false;
    let listStatus = false;
    let idling = false;
    sock.on('data', (d) => {
      pending += d.toString('latin1');
      for (let i = pending.indexOf('\n'); i >= 0; i = pending.indexOf('\n')) {
        const line = pending.slice(0, i);
        pending = pending.slice(i + 1);
        if (line === 'command_list_begin') {
          inList = true;
          listStatus = false;
        } else if (line === 'command_list_end') {
          inList = false;
          sock.write(listStatus ? statusReply : 'OK\n');
        } else if (inList) listStatus ||= line === 'status';
        else if (line === 'status') sock.write(statusReply);
        else if (line === 'close') sock.end();
        else if (line === 'idle') idling = true;
        else if (line === 'noidle') {
          // like mpd: a noidle outside an idle is not answered
          if (idling) sock.write('OK\n');
          idling = false;
        } else sock.write('OK\n');
      }
    });
    sock.on('error', () => sock.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    port: (server.address() as { port: number }).port,
    close() {
      for (const x of sockets) x.destroy();
      server.close();
    },
  };
};

describe('a reply the gateway cannot read is a 502', () => {
  let garbage: { port: number; close(): void };
  let s: TestServer;
  let token: string;

  beforeAll(async () => {
    garbage = await scriptedDaemon('hello\nworld: 1\nOK\n');
    s = await startServer({
      config: {
        player: {
          enabled: true,
          access: 'user',
          connections: { default: { host: '127.0.0.1', port: garbage.port, title: 'Scripted daemon', timeout: '2 seconds', 'max-connections': 2 } },
        },
      },
    });
    token = await s.login(ADMIN.login, ADMIN.password);
  });
  afterAll(async () => {
    await s?.stop();
    garbage?.close();
  });

  const post = (command: string) => s.request<Envelope>('POST', '/api/v1/player', { command }, { token });
  const unreadable = { success: false, type: 'Error', error: { message: expect.stringMatching(/unreadable answer to status/) } };

  it('answers 502 type Error for a garbage status reply, on its own, in a command list and on the special route', async () => {
    for (const command of ['status', 'command_list_begin\nping\nstatus\ncommand_list_end']) {
      const res = await post(command);
      expect({ status: res.status, body: res.body }, JSON.stringify(command)).toEqual({ status: 502, body: unreadable });
    }
    const special = await s.request<Envelope>('GET', '/api/v1/playerspecial/status', undefined, { token });
    expect({ status: special.status, body: special.body }).toEqual({ status: 502, body: unreadable });
    // the daemon's other answers are still read
    expect((await post('ping')).body).toEqual({ success: true, type: 'Empty', result: {} });
  });

  it('sends an Error frame in the place of the answer on a WebSocket; the socket stays open', async () => {
    const { ws, frames, next } = await openPlayerSocket(`${s.url.replace('http', 'ws')}/api/v1/player`, { 'Service-Auth': token });
    try {
      ws.send(JSON.stringify({ command: 'status' }));
      ws.send(JSON.stringify({ command: 'ping' }));
      await next('Empty', 0);
      expect(frames).toEqual([unreadable, { success: true, type: 'Empty', result: {} }]);
      expect(ws.readyState).toBe(ws.OPEN);
    } finally {
      ws.terminate();
    }
  });
});
