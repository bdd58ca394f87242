import type { AddressInfo } from 'node:net';
import { ERRORS } from '@tus/utils';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, errorCodes, type ErrorCode } from '../../../server/common/errors.js';
import type { Logger } from '../../../server/common/log.js';
import { errorHandler, failureOf, resultCodeOf, statusOf } from '../../../server/http/error-mapping.js';
import { UnsafeCommandError } from '../../../server/player/protocol/command-line.js';
import { DaemonError } from '../../../server/player/protocol/connection.js';

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
    app.get('/daemon/:kind', (req) => {
      throw new DaemonError(req.params['kind'] as 'unavailable' | 'timeout', 'The daemon did not answer.');
    });
    app.get('/unsafe', () => {
      throw new UnsafeCommandError('A daemon command must not contain a carriage return or NUL character.');
    });
    app.get('/locked', () => {
      throw ERRORS.ERR_LOCK_TIMEOUT;
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
      // malformed input also names its field (none here)
      const field = code === 'bad-request' ? { field: null } : {};
      expect(await res.json()).toEqual({ success: false, message: `failure ${code}`, code: resultCodeOf[code], ...field });
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
    expect(await res.json()).toEqual({ success: false, message: 'The request body is not valid JSON.', code: 'error.bad-request', field: 'body' });
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

  // The player's daemon and command errors and a tus lock timeout were known only to the
  // route that converted them; thrown anywhere else they became a 500.
  it('maps the daemon, unsafe command and tus lock errors wherever they are thrown', async () => {
    const unavailable = await fetch(`${url}/daemon/unavailable`);
    expect(unavailable.status).toBe(502);
    expect(await unavailable.json()).toEqual({ success: false, message: 'The daemon did not answer.', code: 'error.unavailable' });
    expect((await fetch(`${url}/daemon/timeout`)).status).toBe(504);
    const unsafe = await fetch(`${url}/unsafe`);
    expect(unsafe.status).toBe(400);
    expect(((await unsafe.json()) as { code: string }).code).toBe('error.bad-request');
    const locked = await fetch(`${url}/locked`);
    expect(locked.status).toBe(423);
    expect(await locked.json()).toEqual({ success: false, message: 'The upload is locked by another request.', code: 'error.locked' });
  });

  it('gives every kind of answer the same status, headers and message', () => {
    logged.length = 0;
    const tooMany = failureOf(new AppError('rate-limited', 'Slow down.', { retryAfterSeconds: 3, room: 10, headers: { Upgrade: 'websocket' } }), log, {});
    expect(tooMany).toMatchObject({ status: 429, message: 'Slow down.', headers: { 'Retry-After': '3', 'Tus-Max-Size': '10', Upgrade: 'websocket' } });
    expect(logged).toEqual([]);
    const full = failureOf(new AppError('storage-full', 'There is no space left on the server.'), log, { method: 'PATCH' });
    expect(full.status).toBe(507);
    expect(logged).toEqual([{ msg: 'There is no space left on the server.', fields: { method: 'PATCH', code: 'storage-full', cause: undefined } }]);
    const unknown = failureOf(new Error('secret internals'), log, { method: 'POST' }, 'Unexpected tus error');
    expect(unknown.status).toBe(500);
    expect(unknown.message).not.toContain('secret');
    expect(logged[1]).toMatchObject({ msg: 'Unexpected tus error', fields: { method: 'POST', error: { message: 'secret internals' } } });
  });
});
