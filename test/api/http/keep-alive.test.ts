/**
 * A kept-alive connection stays open a while longer than the `Keep-Alive`
 * timeout the server announces, so that a client reusing it near the
 * announced end does not lose its request to the server closing it.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../support/server.js';

const IDLE_TIMEOUT = 4000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Sends a GET on `socket` and resolves with the whole answer (a body of `Content-Length` bytes), or '' when the server closed the connection. */
const get = (socket: Socket, path: string): Promise<string> =>
  new Promise((resolve) => {
    let text = '';
    const done = (answer: string) => {
      socket.off('data', onData);
      socket.off('close', onClose);
      resolve(answer);
    };
    const onData = (c: Buffer) => {
      text += c.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: (\d+)/i.exec(text);
      if (end >= 0 && length && text.length >= end + 4 + Number(length[1])) done(text);
    };
    const onClose = () => done('');
    socket.on('data', onData);
    socket.once('close', onClose);
    if (!socket.destroyed) socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  });

describe('keep-alive', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ config: { limits: { 'idle-timeout': IDLE_TIMEOUT } } });
  });
  afterAll(() => s?.stop());

  it('serves the next request on a connection idle for longer than the announced timeout', async () => {
    const u = new URL(s.url);
    const socket = connect({ host: u.hostname, port: Number(u.port) });
    socket.on('error', () => undefined);
    try {
      const first = await get(socket, '/api/v2/open/info/version');
      expect(first).toMatch(/^HTTP\/1\.1 200 /);
      const announced = /\r\nkeep-alive: timeout=(\d+)\r\n/i.exec(first);
      expect(announced).not.toBeNull();
      const seconds = Number(announced![1]);
      // never more than the idle timeout, which closes any connection
      expect(seconds * 1000).toBeLessThan(IDLE_TIMEOUT);
      await sleep(seconds * 1000 + 500);
      expect(await get(socket, '/api/v2/open/info/version')).toMatch(/^HTTP\/1\.1 200 /);
    } finally {
      socket.destroy();
    }
  });
});
