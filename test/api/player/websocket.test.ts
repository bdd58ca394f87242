import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startMpd, type MpdInstance } from '../../support/mpd.js';
import { playerConfig } from '../../support/mpd-server.js';
import { ADMIN, startServer, type Json, type TestServer } from '../../support/server.js';

type Frame = { success: boolean; type: string; result?: Json & { changes?: string[] }; error?: { message: string }; ack?: Json };

/** A WebSocket client that collects frames and lets a test wait for one. */
class Client {
  readonly frames: Frame[] = [];
  private waiters: Array<() => void> = [];
  closed: { code: number; reason: string } | undefined;

  constructor(readonly ws: WebSocket) {
    ws.on('message', (d) => {
      this.frames.push(JSON.parse(String(d)) as Frame);
      this.wake();
    });
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      this.wake();
    });
  }

  private wake() {
    for (const w of this.waiters.splice(0)) w();
  }

  /** resolves with the first frame (from `from` on) that matches */
  async next(match: (f: Frame) => boolean, from = 0, timeoutMs = 5000): Promise<Frame> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hit = this.frames.slice(from).find(match);
      if (hit) return hit;
      if (Date.now() > deadline) throw new Error(`no matching frame; got ${JSON.stringify(this.frames)}`);
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 100);
      });
    }
  }

  async waitClosed(timeoutMs = 5000): Promise<{ code: number; reason: string }> {
    const deadline = Date.now() + timeoutMs;
    while (!this.closed) {
      if (Date.now() > deadline) throw new Error('socket did not close');
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 100);
      });
    }
    return this.closed;
  }

  send(command: unknown) {
    this.ws.send(typeof command === 'string' ? command : JSON.stringify(command));
  }
}

const open = (url: string, headers: Record<string, string>): Promise<Client> =>
  new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    const c = new Client(ws);
    ws.once('open', () => resolve(c));
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => reject(Object.assign(new Error(`upgrade refused: ${res.statusCode} ${body}`), { status: res.statusCode, body })));
    });
    ws.once('error', (e) => reject(e));
  });

const refusedStatus = async (url: string, headers: Record<string, string> = {}): Promise<number> => {
  try {
    const c = await open(url, headers);
    c.ws.close();
    return 101;
  } catch (e) {
    return (e as { status?: number }).status ?? -1;
  }
};

describe('the player WebSocket against a real mpd', () => {
  let mpd: MpdInstance;
  let s: TestServer;
  let token: string;
  let wsUrl: string;

  beforeAll(async () => {
    mpd = await startMpd();
    s = await startServer({ config: playerConfig(mpd, { connections: { second: { host: '127.0.0.1', port: mpd.port } } }) });
    token = await s.login(ADMIN.login, ADMIN.password);
    wsUrl = s.url.replace('http', 'ws') + '/api/v1/player';
    await mpd.command('clear', 'add "Artist One/Blue Album"', 'stop');
  });
  afterAll(async () => {
    await s?.stop();
    await mpd?.dispose();
  });

  it('answers commands sent over the socket and reports player changes after play on the same socket', async () => {
    const c = await open(wsUrl, { 'Service-Auth': token });
    try {
      c.send({ command: 'status' });
      const status = await c.next((f) => f.type === 'StatusAnswer');
      expect(status.success).toBe(true);
      const from = c.frames.length;
      c.send({ command: 'play' });
      await c.next((f) => f.type === 'Empty', from);
      const idle = await c.next((f) => f.type === 'IdleAnswer' && !!f.result?.changes?.includes('player'), from);
      expect(idle).toMatchObject({ success: true, type: 'IdleAnswer', result: { changes: expect.arrayContaining(['player']) } });
      c.send({ command: 'stop' });
      await c.next((f) => f.type === 'Empty', from + 2);
    } finally {
      c.ws.close();
    }
  });

  it('reports changes made by another client (mpc play)', async () => {
    const c = await open(`${wsUrl}/default`, { 'Service-Auth': token });
    try {
      // the socket is idle once its first command was answered
      c.send({ command: 'ping' });
      await c.next((f) => f.type === 'Empty');
      const from = c.frames.length;
      mpd.mpc('play');
      const idle = await c.next((f) => f.type === 'IdleAnswer', from);
      expect(idle.result?.changes).toContain('player');
      mpd.mpc('volume', '40');
      expect((await c.next((f) => f.type === 'IdleAnswer' && !!f.result?.changes?.includes('mixer'), from)).success).toBe(true);
      mpd.mpc('stop');
    } finally {
      c.ws.close();
    }
  });

  it('answers malformed frames, idle/noidle and ACKs with frames and keeps the socket open', async () => {
    const c = await open(wsUrl, { 'Service-Auth': token });
    try {
      c.send('not json');
      c.send({ cmd: 'status' });
      c.send({ command: 'idle' });
      c.send({ command: 'noidle' });
      c.send({ command: 'status\nstats' });
      c.ws.send(Buffer.from([1, 2, 3]), { binary: true });
      c.send({ command: 'playlistinfo 999' });
      c.send({ command: 'stats' });
      await c.next((f) => f.type === 'StatsAnswer');
      expect(c.frames.filter((f) => f.type === 'Error')).toHaveLength(6);
      expect(c.frames.find((f) => f.type === 'Ack')?.ack).toMatchObject({ code: { value: 2, name: 'invalid_argument' } });
      expect(c.closed).toBeUndefined();
    } finally {
      c.ws.close();
    }
  });

  it('answers pings with pongs', async () => {
    const c = await open(wsUrl, { 'Service-Auth': token });
    try {
      const pong = new Promise<string>((r) => c.ws.once('pong', (d) => r(d.toString())));
      c.ws.ping('hello');
      expect(await pong).toBe('hello');
    } finally {
      c.ws.close();
    }
  });

  it('authenticates the upgrade: 401 without a token, cookie accepted, 403 for a foreign page, 404 for an unknown id', async () => {
    expect(await refusedStatus(wsUrl)).toBe(401);
    expect(await refusedStatus(wsUrl, { 'Service-Auth': 'garbage' })).toBe(401);
    expect(await refusedStatus(wsUrl, { Cookie: `service_auth=${token}` })).toBe(101);
    const host = new URL(s.url).host;
    expect(await refusedStatus(wsUrl, { Cookie: `service_auth=${token}`, Origin: `http://${host}` })).toBe(101);
    expect(await refusedStatus(wsUrl, { Cookie: `service_auth=${token}`, Origin: 'http://evil.example' })).toBe(403);
    expect(await refusedStatus(`${wsUrl}/nosuch`, { 'Service-Auth': token })).toBe(404);
    expect(await refusedStatus(`${wsUrl}/second`, { 'Service-Auth': token })).toBe(101);
    expect(await refusedStatus(s.url.replace('http', 'ws') + '/api/v2/other', { 'Service-Auth': token })).toBe(404);
  });

  it('closes the socket with a reason when the daemon stops, answers 502, and recovers when it is back', async () => {
    const c = await open(wsUrl, { 'Service-Auth': token });
    c.send({ command: 'ping' });
    await c.next((f) => f.type === 'Empty');
    await mpd.stop();
    try {
      const closed = await c.waitClosed();
      expect(closed.code).toBe(1011);
      expect(closed.reason).toMatch(/daemon/i);
      const down = await s.request<Frame>('POST', '/api/v1/player', { command: 'status' }, { token });
      expect(down.status).toBe(502);
      expect(down.body).toMatchObject({ success: false, type: 'Error', error: { message: expect.stringMatching(/not reachable|closed/) } });
      expect(await refusedStatus(wsUrl, { 'Service-Auth': token })).toBe(502);
    } finally {
      await mpd.start();
    }
    const up = await s.request<Frame>('POST', '/api/v1/player', { command: 'status' }, { token });
    expect(up.status).toBe(200);
    const again = await open(wsUrl, { 'Service-Auth': token });
    try {
      again.send({ command: 'status' });
      expect((await again.next((f) => f.type === 'StatusAnswer')).success).toBe(true);
    } finally {
      again.ws.close();
    }
  });
});
