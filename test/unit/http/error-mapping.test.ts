import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, errorCodes, type ErrorCode } from '../../../server/common/errors.js';
import type { Logger } from '../../../server/common/log.js';
import { errorHandler, resultCodeOf, statusOf } from '../../../server/http/error-mapping.js';

const logged: Array<{ msg: string; fields?: Record<string, unknown> }> = [];
const log: Logger = {
  trace() {},
  debug() {},
  info() {},
  warn() {},
  error: (msg, fields) => {
    logged.push({ msg, fields });
  },
  child: () => log,
};

describe('the error mapping', () => {
  let url: string;
  let close: () => void;
  beforeAll(async () => {
    const app = express();
    app.use(express.json());
    app.get('/code/:code', (req) => {
      throw new AppError(req.params['code'] as ErrorCode, `failure ${req.params['code']}`, { retryAfterSeconds: 7 });
    });
    app.get('/reason', () => {
      throw new AppError('rate-limited', 'Slow down.', { reason: 'auth.too-many-attempts' });
    });
    app.get('/boom', () => {
      throw new Error('secret internals at /srv/pier/db.ts:42');
    });
    app.get('/async', async () => {
      await Promise.resolve();
      throw new TypeError('async internals');
    });
    app.post('/json', (_req, res) => {
      res.json({ ok: true });
    });
    app.use(errorHandler(log));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });
  afterAll(() => close());

  it('maps every error code to its status with a generic result and its result code', async () => {
    expect(Object.keys(statusOf).sort()).toEqual([...errorCodes].sort());
    for (const code of errorCodes) {
      const res = await fetch(`${url}/code/${code}`);
      expect(res.status, code).toBe(statusOf[code]);
      expect(await res.json()).toEqual({ success: false, message: `failure ${code}`, code: resultCodeOf[code] });
    }
    expect(resultCodeOf).toMatchObject({ 'not-found': 'error.not-found', unauthenticated: 'auth.failed', 'password-wrong': 'share.password-wrong' });
  });

  it('answers with the reason an error names instead of its generic result code', async () => {
    const res = await fetch(`${url}/reason`);
    expect(res.status).toBe(429);
    expect(await res.json()).toEqual({ success: false, message: 'Slow down.', code: 'auth.too-many-attempts' });
  });

  it('adds Retry-After to 429 and the share realm to a missing share password', async () => {
    expect((await fetch(`${url}/code/rate-limited`)).headers.get('retry-after')).toBe('7');
    expect((await fetch(`${url}/code/password-required`)).headers.get('www-authenticate')).toBe('Service realm="share"');
  });

  it('answers malformed JSON with 400, not 500', async () => {
    const res = await fetch(`${url}/json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ success: false, message: 'The request body is not valid JSON.', code: 'error.bad-request' });
  });

  it('turns unexpected failures into a 500 with an error id that is logged, without internals', async () => {
    for (const path of ['/boom', '/async']) {
      logged.length = 0;
      const res = await fetch(url + path);
      expect(res.status).toBe(500);
      const body = (await res.json()) as { success: boolean; message: string; code: string };
      expect(body.success).toBe(false);
      expect(body.code).toBe('error.internal');
      expect(body.message).not.toMatch(/internals|db\.ts/);
      const id = /error id ([0-9a-f]+)/.exec(body.message)?.[1];
      expect(id).toBeTruthy();
      expect(logged.some((l) => l.fields?.['errorId'] === id)).toBe(true);
    }
  });
});
