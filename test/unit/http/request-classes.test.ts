import express from 'express';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { requestClasses } from '../../../server/http/request-classes.js';

/** An app with one JSON route that uses express' own request and response helpers. */
const appWithRoute = () => {
  const app = express();
  app.use(express.json());
  app.post('/echo', (req, res) => {
    res.status(201).json({ command: (req.body as { command: string }).command, type: req.get('content-type'), app: req.app === app });
  });
  return app;
};

let server: Server | undefined;
afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

/**
 * Serves `app` and sends one POST /echo; returns the answer, the request's
 * prototype before and after express handled it, and the answer's prototype
 * before express handled it.
 */
const exchange = async (make: (app: express.Express) => Server, app: express.Express) => {
  server = make(app);
  const seen: { before?: object | null; after?: object | null; response?: object | null } = {};
  server.prependListener('request', (req: IncomingMessage, res) => {
    seen.before = Object.getPrototypeOf(req) as object | null;
    seen.response = Object.getPrototypeOf(res) as object | null;
    res.on('finish', () => (seen.after = Object.getPrototypeOf(req) as object | null));
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
  const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/echo`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ command: 'status' }),
  });
  return { status: res.status, body: (await res.json()) as unknown, seen };
};

describe('requestClasses', () => {
  it('makes requests born with the app request prototype, which express then leaves as it is', async () => {
    const app = appWithRoute();
    const { status, body, seen } = await exchange((a) => createServer(requestClasses(a), a), app);
    expect(status).toBe(201);
    expect(body).toEqual({ command: 'status', type: 'application/json', app: true });
    expect(seen.before).toBe(app.request);
    expect(seen.after).toBe(app.request);
  });

  it('leaves a server built without them working, with the prototype changed by express', async () => {
    const app = appWithRoute();
    requestClasses(app);
    const { status, body, seen } = await exchange((a) => createServer(a), app);
    expect(status).toBe(201);
    expect(body).toEqual({ command: 'status', type: 'application/json', app: true });
    expect(seen.before).not.toBe(app.request);
    expect(seen.after).toBe(app.request);
  });

  it('gives answers the app response prototype from the start', async () => {
    const app = appWithRoute();
    const { status, seen } = await exchange((a) => createServer(requestClasses(a), a), app);
    expect(status).toBe(201);
    expect(seen.response).toBe(app.response);
  });
});
