/**
 * The minimum body rate measures the client, never the server: time in which
 * the server does not read a body (a slow store, a handler that reads later)
 * pauses the socket and is not counted, so a fast client is not cut for the
 * server's own delay; a body that trickles while the server waits for it is.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { cutSlowBodies } from '../../../server/http/slow-bodies.js';

const WINDOW = 400;
const silent = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, child() { return this; } };

const post = (port: number, body: Buffer): Promise<number> =>
  new Promise((resolve) => {
    const req = request({ port, method: 'POST', agent: false, headers: { 'Content-Length': String(body.length) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
    req.end(body);
  });

describe('the minimum body rate', () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    server?.closeAllConnections();
    server = undefined;
  });

  it('does not count the time in which the server does not read the body', async () => {
    server = createServer((req, res) => {
      // the handler reads the body only after three windows, as a slow store would
      setTimeout(() => {
        req.resume();
        req.on('end', () => res.end('ok'));
      }, WINDOW * 3);
    });
    cutSlowBodies(server, { minRate: 1024 * 1024, window: WINDOW }, silent, () => 'test');
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    // 8 MiB: far more than the socket buffers take while nobody reads
    expect(await post(port, Buffer.alloc(8 * 1024 * 1024))).toBe(200);
  });
});
