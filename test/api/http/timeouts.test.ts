/**
 * A thousand idle unauthenticated connections must not keep the server from
 * accepting new ones: the HTTP server has request, header and idle limits and a
 * connection cap. Headers must
 * arrive within `limits.header-timeout`; a connection that sends and receives
 * nothing for `limits.idle-timeout` is closed; at most `limits.connections`
 * are open at once. An upload that keeps sending, however slowly, is never cut,
 * and neither is a quiet player WebSocket.
 */
import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startMpd, type MpdInstance } from '../../support/mpd.js';
import { playerConfig } from '../../support/mpd-server.js';
import { ADMIN, startServer, type TestServer } from '../../support/server.js';

const HEADER_TIMEOUT = 500;
const IDLE_TIMEOUT = 1500;
const CONNECTIONS = 20;
const PER_ADDRESS = 8;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** ms until the server closed `c`, or -1 when it is still open after `ms` */
const closedWithin = (c: Opened, ms: number): Promise<number> => Promise.race([c.closed, sleep(ms).then(() => -1)]);

interface Opened {
  socket: Socket;
  /** ms from connecting until the server closed the connection */
  closed: Promise<number>;
  received(): string;
}

const openSocket = (s: TestServer, localAddress?: string): Promise<Opened> =>
  new Promise((resolve, reject) => {
    const u = new URL(s.url);
    const socket = connect({ host: u.hostname, port: Number(u.port), ...(localAddress ? { localAddress } : {}) });
    const start = Date.now();
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (c: string) => (text += c));
    const closed = new Promise<number>((r) => socket.once('close', () => r(Date.now() - start)));
    socket.once('error', () => undefined);
    socket.once('connect', () => resolve({ socket, closed, received: () => text }));
    socket.once('error', reject);
  });

/** A GET on a new connection (no keep-alive pool): its status, or the error when the server dropped it. */
const freshGet = (s: TestServer, path: string): Promise<number | string> =>
  new Promise((resolve) => {
    const u = new URL(s.url);
    const req = httpRequest({ host: u.hostname, port: u.port, path, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
    req.end();
  });

describe('HTTP timeouts and the connection cap', () => {
  let mpd: MpdInstance;
  let s: TestServer;
  let token: string;

  beforeAll(async () => {
    mpd = await startMpd();
    s = await startServer({
      config: {
        limits: { 'header-timeout': HEADER_TIMEOUT, 'idle-timeout': IDLE_TIMEOUT, connections: CONNECTIONS, 'connections-per-address': PER_ADDRESS },
        ...playerConfig(mpd),
      },
    });
    token = await s.login(ADMIN.login, ADMIN.password);
  });
  afterAll(async () => {
    await s?.stop();
    await mpd?.dispose();
  });

  it('closes a connection whose headers do not arrive within the header timeout, even when they trickle in', async () => {
    const half = await openSocket(s);
    half.socket.write('GET /api/v2/open/info/version HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const trickle = await openSocket(s);
    trickle.socket.write('GET /api/v2/open/info/version HTTP/1.1\r\n');
    // one byte every 100 ms keeps the socket busy: only the header timeout ends it
    const timer = setInterval(() => {
      if (!trickle.socket.destroyed) trickle.socket.write('X');
    }, 100);
    try {
      expect(await closedWithin(half, IDLE_TIMEOUT * 3)).toBeGreaterThan(0);
      expect(await half.closed).toBeLessThan(IDLE_TIMEOUT);
      expect(await closedWithin(trickle, IDLE_TIMEOUT * 3)).toBeGreaterThan(0);
      expect(await trickle.closed).toBeLessThan(IDLE_TIMEOUT);
      expect(trickle.received()).not.toContain('200 OK');
    } finally {
      clearInterval(timer);
    }
  });

  it('cuts a request body that stops arriving after the idle timeout', async () => {
    const c = await openSocket(s);
    c.socket.write(
      'POST /api/v2/open/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{"account":',
    );
    const after = await closedWithin(c, IDLE_TIMEOUT * 4);
    expect(after).toBeGreaterThanOrEqual(IDLE_TIMEOUT - 100);
    expect(after).toBeLessThan(IDLE_TIMEOUT * 3);
  });

  it('lets a slow upload that keeps sending run longer than the idle timeout', async () => {
    const created = await s.request<{ success: boolean; id: string }>('POST', '/api/v2/sec/upload/new', { validity: 86_400_000, maxViews: 5 }, { token });
    expect(created.body.success).toBe(true);
    const chunks = 9;
    const chunk = Buffer.alloc(100, 'a');
    const tus = await fetch(`${s.url}/api/v2/sec/upload/${created.body.id}/files/tus`, {
      method: 'POST',
      headers: { 'Service-Auth': token, 'Tus-Resumable': '1.0.0', 'Upload-Length': String(chunks * chunk.length), 'Service-File-Name': 'slow.txt' },
    });
    expect(tus.status).toBe(201);
    const location = new URL(tus.headers.get('location')!);
    const start = Date.now();
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        {
          host: location.hostname,
          port: new URL(s.url).port,
          path: location.pathname,
          method: 'PATCH',
          agent: false,
          headers: {
            'Service-Auth': token,
            'Tus-Resumable': '1.0.0',
            'Upload-Offset': '0',
            'Content-Type': 'application/offset+octet-stream',
            'Content-Length': String(chunks * chunk.length),
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      let sent = 0;
      const send = () => {
        req.write(chunk);
        if (++sent === chunks) req.end();
        else setTimeout(send, IDLE_TIMEOUT / 3);
      };
      send();
    });
    expect(status).toBe(204);
    expect(Date.now() - start).toBeGreaterThan(IDLE_TIMEOUT * 2);
  });

  it('keeps a quiet player WebSocket open beyond the idle timeout', async () => {
    const ws = new WebSocket(s.url.replace('http', 'ws') + '/api/v1/player', { headers: { 'Service-Auth': token } });
    const frames: string[] = [];
    ws.on('message', (d) => frames.push(String(d)));
    let closed = false;
    ws.on('close', () => (closed = true));
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    try {
      // letting twice the idle timeout pass is the test: an open WebSocket is not idle
      await sleep(IDLE_TIMEOUT * 2);
      expect(closed).toBe(false);
      ws.send(JSON.stringify({ command: 'ping' }));
      await expect.poll(() => frames.some((f) => f.includes('"Empty"'))).toBe(true);
    } finally {
      ws.close();
    }
  });

  // One neighbour holding every place of the cap kept everyone else out until the header timeout.
  it('lets one client address hold at most limits.connections-per-address, so others get in at once', async () => {
    const hog = await Promise.all(Array.from({ length: CONNECTIONS }, () => openSocket(s, '127.0.0.2')));
    const closedAtOnce = await Promise.all(hog.map((c) => closedWithin(c, 150)));
    expect(closedAtOnce.filter((ms) => ms === -1)).toHaveLength(PER_ADDRESS);
    expect(await freshGet(s, '/api/v2/open/info/version')).toBe(200);
    for (const c of hog) c.socket.destroy();
    await sleep(50);
  });

  it('accepts at most limits.connections at once, and reaps idle ones so new clients get in again', async () => {
    const addresses = ['127.0.0.3', '127.0.0.4', '127.0.0.5'];
    const idle = await Promise.all(Array.from({ length: CONNECTIONS }, (_, i) => openSocket(s, addresses[i % addresses.length])));
    await sleep(100);
    // over the cap the server closes a new connection at once
    expect(typeof (await freshGet(s, '/api/v2/open/info/version'))).toBe('string');
    // connections that never send their headers are gone after the header timeout
    const reaped = await Promise.all(idle.map((c) => closedWithin(c, IDLE_TIMEOUT * 3)));
    expect(Math.min(...reaped)).toBeGreaterThan(0);
    expect(Math.max(...reaped)).toBeLessThan(IDLE_TIMEOUT);
    expect(await freshGet(s, '/api/v2/open/info/version')).toBe(200);
  });
});
