// Access to the gateway is checked on the one request path at every request and before
// every WebSocket command, so a disabled or demoted account loses it with its next
// command. The time a command waits for a pooled connection does not count against the
// daemon's timeout, so a busy but healthy daemon is not answered with 504.
import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMpd, type MpdInstance } from '../../support/mpd.js';
import { playerConfig } from '../../support/mpd-server.js';
import { openPlayerSocket as openSocket, type Envelope } from '../../support/player-socket.js';
import { ADMIN, startServer, type TestServer } from '../../support/server.js';

/**
 * A link to the daemon that passes every answer on after `delayMs`: a busy
 * daemon, slower than usual but well within its timeout for each command.
 */
const slowLink = (port: number, delayMs: number): Promise<{ server: Server; port: number }> =>
  new Promise((resolve) => {
    const server = createServer((client: Socket) => {
      const daemon = connect({ host: '127.0.0.1', port });
      client.on('data', (d) => daemon.write(d));
      daemon.on('data', (d) => setTimeout(() => client.writable && client.write(d), delayMs));
      client.on('close', () => daemon.destroy());
      daemon.on('close', () => setTimeout(() => client.destroy(), delayMs));
      client.on('error', () => daemon.destroy());
      daemon.on('error', () => client.destroy());
    });
    server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as { port: number }).port }));
  });

describe('access to the gateway is checked at every request and every WebSocket command', () => {
  let mpd: MpdInstance;
  let s: TestServer;
  let admin: string;
  let link: Server;

  beforeAll(async () => {
    mpd = await startMpd();
    const slow = await slowLink(mpd.port, 700);
    link = slow.server;
    s = await startServer({
      config: playerConfig(mpd, { connections: { busy: { host: '127.0.0.1', port: slow.port, timeout: '1 second', 'max-connections': 1 } } }),
    });
    admin = await s.login(ADMIN.login, ADMIN.password);
  });
  afterAll(async () => {
    await s?.stop();
    link?.close();
    await mpd?.dispose();
  });

  const account = async (login: string, isAdmin: boolean) => {
    await s.request('POST', '/api/v2/admin/account', { login, state: 'Active', admin: isAdmin, password: `${login}-password` }, { token: admin });
    const list = await s.request<{ items: Array<{ id: string; login: string }> }>('GET', `/api/v2/admin/account?q=${login}`, undefined, { token: admin });
    const id = list.body.items.find((a) => a.login === login)!.id;
    return { id, token: await s.login(login, `${login}-password`) };
  };
  const modify = (id: string, state: 'Active' | 'Disabled', isAdmin: boolean) =>
    s.request('POST', `/api/v2/admin/account/${id}`, { state, admin: isAdmin }, { token: admin });
  const post = (command: string, token: string) => s.request<Envelope>('POST', '/api/v1/player', { command }, { token });

  it("refuses a disabled account's very next HTTP command", async () => {
    const u = await account('disabled-http', false);
    expect((await post('status', u.token)).status).toBe(200);
    await modify(u.id, 'Disabled', false);
    const res = await post('status', u.token);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, type: 'Error', error: { message: expect.any(String) } });
  });

  it("refuses a demoted admin's very next admin-only HTTP command", async () => {
    const u = await account('demoted-http', true);
    // `config` is admin-only; the daemon itself refuses it over TCP (an ACK), so it changes nothing
    expect((await post('config', u.token)).body.type).toBe('Ack');
    await modify(u.id, 'Active', false);
    const refused = await post('config', u.token);
    expect(refused.status).toBe(403);
    expect(refused.body.type).toBe('Error');
    expect((await post('status', u.token)).status).toBe(200);
  });

  it("refuses a disabled account's next WebSocket command with an Error frame and closes the socket", async () => {
    const u = await account('disabled-ws', false);
    const c = await openSocket(`${s.url.replace('http', 'ws')}/api/v1/player`, { 'Service-Auth': u.token });
    try {
      c.ws.send(JSON.stringify({ command: 'status' }));
      await c.next('StatusAnswer', 0);
      await modify(u.id, 'Disabled', false);
      const from = c.frames.length;
      c.ws.send(JSON.stringify({ command: 'status' }));
      const refused = await c.next('Error', from);
      expect(refused.error!.message).toMatch(/revoked/);
      expect(c.frames.slice(from).some((f) => f.type === 'StatusAnswer')).toBe(false);
      expect((await c.closed).code).toBe(1008);
    } finally {
      c.ws.terminate();
    }
  });

  it("refuses a demoted admin's next admin-only WebSocket command", async () => {
    const u = await account('demoted-ws', true);
    const c = await openSocket(`${s.url.replace('http', 'ws')}/api/v1/player`, { 'Service-Auth': u.token });
    try {
      c.ws.send(JSON.stringify({ command: 'config' }));
      await c.next('Ack', 0);
      await modify(u.id, 'Active', false);
      const from = c.frames.length;
      c.ws.send(JSON.stringify({ command: 'config' }));
      expect((await c.next('Error', from)).error!.message).toMatch(/admin/i);
      c.ws.send(JSON.stringify({ command: 'status' }));
      await c.next('StatusAnswer', from);
    } finally {
      c.ws.terminate();
    }
  });

  it('does not count the wait for a pooled connection against the daemon timeout', async () => {
    // one connection, 1 s timeout, every answer 700 ms late: the second command waits ~700 ms, then needs ~700 ms
    const results = await Promise.all([0, 1, 2].map(() => s.request<Envelope>('POST', '/api/v1/player/busy', { command: 'status' }, { token: admin })));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(results.map((r) => r.body.type)).toEqual(['StatusAnswer', 'StatusAnswer', 'StatusAnswer']);
  });
});
