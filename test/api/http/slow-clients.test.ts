/**
 * Regression: a body that trickled one byte every 20 s was never cut (every
 * byte restarts the idle timeout), so from 8 addresses slow connections took
 * all 512 places and the server, the desktop's own window included, was
 * unreachable. A request body whose average rate over `limits.body-rate-window`
 * falls below `limits.min-body-rate` gets 408 and its connection is closed;
 * and connections that have not signed in are held to the tighter
 * `limits.anonymous-connections-per-address` (loopback excepted), so
 * addresses without an account hold only a small share of the places.
 */
import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startServer, type TestServer } from '../../support/server.js';

const WINDOW = 1000;
const ANONYMOUS = 4;
const PER_ADDRESS = 12;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Opened {
  socket: Socket;
  /** ms from connecting until the server closed the connection */
  closed: Promise<number>;
  received(): string;
}

const openSocket = (host: string, port: number, localAddress?: string): Promise<Opened> =>
  new Promise((resolve, reject) => {
    const socket = connect({ host, port, ...(localAddress ? { localAddress } : {}) });
    const start = Date.now();
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (c: string) => (text += c));
    const closed = new Promise<number>((r) => socket.once('close', () => r(Date.now() - start)));
    socket.once('error', () => undefined);
    socket.once('connect', () => resolve({ socket, closed, received: () => text }));
    socket.once('error', reject);
  });

/** ms until the server closed `c`, or -1 when it is still open after `ms` */
const closedWithin = (c: Opened, ms: number): Promise<number> => Promise.race([c.closed, sleep(ms).then(() => -1)]);

/** This machine's first non-loopback IPv4 address. */
const lanAddress = (): string | undefined =>
  Object.values(networkInterfaces())
    .flatMap((l) => l ?? [])
    .find((a) => a.family === 'IPv4' && !a.internal)?.address;

describe('slow request bodies', () => {
  let s: TestServer;
  let token: string;
  let host: string;
  let port: number;

  beforeAll(async () => {
    s = await startServer({ config: { limits: { 'min-body-rate': '1K', 'body-rate-window': `${WINDOW} milliseconds` } } });
    token = await s.login(ADMIN.login, ADMIN.password);
    ({ hostname: host } = new URL(s.url));
    port = Number(new URL(s.url).port);
  });
  afterAll(() => s.stop());

  it('cuts a body that trickles in below the minimum rate with 408, though it never goes idle', async () => {
    const c = await openSocket(host, port);
    c.socket.write(`POST /api/v2/open/auth/login HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{`);
    const timer = setInterval(() => {
      if (!c.socket.destroyed) c.socket.write(' ');
    }, 100);
    try {
      const after = await closedWithin(c, WINDOW * 4);
      expect(after).toBeGreaterThan(0);
      expect(after).toBeLessThan(WINDOW * 3);
      expect(c.received()).toMatch(/^HTTP\/1\.1 408/);
      expect(c.received()).toContain('"success":false');
    } finally {
      clearInterval(timer);
    }
    expect(s.logs()).not.toMatch(/"level":"(error|Error)"/);
  });

  it('lets a body that keeps above the minimum rate run for several windows', async () => {
    const created = await s.request<{ success: boolean; id: string }>('POST', '/api/v2/sec/upload/new', { validity: 86_400_000, maxViews: 5 }, { token });
    const chunk = Buffer.alloc(600, 'a');
    const chunks = 12;
    const tus = await fetch(`${s.url}/api/v2/sec/upload/${created.body.id}/files/tus`, {
      method: 'POST',
      headers: { 'Service-Auth': token, 'Tus-Resumable': '1.0.0', 'Upload-Length': String(chunks * chunk.length), 'Service-File-Name': 'steady.txt' },
    });
    expect(tus.status).toBe(201);
    const location = new URL(tus.headers.get('location')!);
    const start = Date.now();
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        {
          host,
          port,
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
      // 600 bytes every 250 ms: 2.4 KB/s, above the 1 KiB/s minimum
      const send = () => {
        req.write(chunk);
        if (++sent === chunks) req.end();
        else setTimeout(send, 250);
      };
      send();
    });
    expect(status).toBe(204);
    expect(Date.now() - start).toBeGreaterThan(WINDOW * 2);
  });

  it('holds loopback addresses only to connections-per-address, not to the anonymous cap', async () => {
    const t = await startServer({ config: { limits: { 'anonymous-connections-per-address': ANONYMOUS, 'connections-per-address': PER_ADDRESS } } });
    try {
      const u = new URL(t.url);
      const idle = await Promise.all(Array.from({ length: ANONYMOUS + 2 }, () => openSocket(u.hostname, Number(u.port), '127.0.0.2')));
      const closed = await Promise.all(idle.map((c) => closedWithin(c, 150)));
      expect(closed.filter((ms) => ms === -1)).toHaveLength(ANONYMOUS + 2);
      for (const c of idle) c.socket.destroy();
    } finally {
      await t.stop();
    }
  });
});

describe('connections of one LAN address that has not signed in', () => {
  let s: TestServer;
  let token: string;
  let lan: string;
  let port: number;

  beforeAll(async () => {
    const address = lanAddress();
    if (!address) throw new Error('this test needs a machine with a non-loopback IPv4 address');
    lan = address;
    s = await startServer({
      config: { bind: { address: lan, port: 0 }, limits: { 'anonymous-connections-per-address': ANONYMOUS, 'connections-per-address': PER_ADDRESS } },
    });
    port = Number(new URL(s.url).port);
    // on a connection that closes after the answer, so no pooled connection of the test counts against the caps
    token = await new Promise<string>((resolve, reject) => {
      const req = httpRequest(
        { host: lan, port, path: '/api/v2/open/auth/login', method: 'POST', agent: false, headers: { 'Content-Type': 'application/json', Connection: 'close' } },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (text += c));
          res.on('end', () => resolve((JSON.parse(text) as { token: string }).token));
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify({ account: ADMIN.login, password: ADMIN.password }));
    });
    await sleep(50);
  });
  afterAll(() => s?.stop());

  it('are held to anonymous-connections-per-address; signed-in ones to connections-per-address', async () => {
    const idle = await Promise.all(Array.from({ length: ANONYMOUS + 3 }, () => openSocket(lan, port, lan)));
    const closed = await Promise.all(idle.map((c) => closedWithin(c, 150)));
    expect(closed.filter((ms) => ms === -1)).toHaveLength(ANONYMOUS);
    for (const c of idle) c.socket.destroy();
    await sleep(50);

    // connections on which a request signed in no longer count as anonymous
    const signed: Opened[] = [];
    for (let i = 0; i < PER_ADDRESS - 1; i++) {
      const c = await openSocket(lan, port, lan);
      c.socket.write(`GET /api/v2/sec/share/search HTTP/1.1\r\nHost: ${lan}:${port}\r\nService-Auth: ${token}\r\n\r\n`);
      await expect.poll(() => c.received()).toMatch(/^HTTP\/1\.1 200/);
      signed.push(c);
    }
    expect((await Promise.all(signed.map((c) => closedWithin(c, 100)))).filter((ms) => ms === -1)).toHaveLength(PER_ADDRESS - 1);
    // one more place under connections-per-address, for a connection that has not signed in yet
    const last = await openSocket(lan, port, lan);
    expect(await closedWithin(last, 150)).toBe(-1);
    const over = await openSocket(lan, port, lan);
    expect(await closedWithin(over, 150)).toBeGreaterThan(0);
    for (const c of [...signed, last, over]) c.socket.destroy();
  });
});
