import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { Clock } from '../../server/common/clock.js';
import { loadConfig } from '../../server/config/index.js';
import type { Config } from '../../server/config/types.js';
import { createServer, type InitialAdmin, type PierServer, type ServerEvents } from '../../server/index.js';
import { createLogger } from '../../server/logging/logger.js';
import { checkResponse } from './openapi-check.js';

export type Json = Record<string, unknown>;

export interface ApiResponse<T = Json> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  token?: string;
  cookie?: string;
  headers?: Record<string, string>;
  /** a raw body sent as is (default: JSON of `body`) */
  raw?: string;
  /** skip the OpenAPI response check (for routes outside the API) */
  unchecked?: boolean;
  redirect?: 'manual' | 'follow';
}

export interface TestServer {
  url: string;
  config: Config;
  dataDir: string;
  /** everything the server logged (JSON lines) */
  logs(): string;
  request<T = Json>(method: string, path: string, body?: unknown, opts?: RequestOptions): Promise<ApiResponse<T>>;
  /** the server's events (`createServer(...).events`) */
  events: ServerEvents;
  /** one cleanup pass now */
  runCleanup(): ReturnType<PierServer['runCleanup']>;
  /** logs in and returns the token (fails the test when the login fails) */
  login(account: string, password: string): Promise<string>;
  stop(): Promise<void>;
}

export const ADMIN = { login: 'admin', password: 'admin-test-password' };

export interface StartOptions {
  /** config below `service.restserver` (nested objects, HOCON key names) */
  config?: Json;
  env?: Record<string, string>;
  clock?: Clock;
  initialAdmin?: InitialAdmin;
  /** reuse a data directory (restart scenarios); removed only by its creator */
  dataDir?: string;
}

/**
 * A real Pier server on 127.0.0.1, port 0, with a real SQLite file in a new
 * temp data directory, the first admin `admin`, and every JSON answer of a
 * documented route checked against openapi.yml.
 */
export const startServer = async (opts: StartOptions = {}): Promise<TestServer> => {
  const ownDir = !opts.dataDir;
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'pier-test-'));
  const file = join(dataDir, `test-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  const restserver = {
    'data-dir': dataDir,
    bind: { address: '127.0.0.1', port: 0 },
    logging: { format: 'Json', 'minimum-level': 'Warn', levels: { pier: 'Info' } },
    ...opts.config,
  };
  writeFileSync(file, JSON.stringify({ service: { restserver: restserver } }));
  const { config } = await loadConfig({ file, env: opts.env ?? {} });
  let logText = '';
  const sink = new Writable({
    write(chunk: Buffer, _e, done) {
      logText += chunk.toString('utf8');
      done();
    },
  });
  const server = createServer(config, {
    logger: createLogger(config.logging, sink),
    ...(opts.clock ? { clock: opts.clock } : {}),
    initialAdmin: opts.initialAdmin ?? { kind: 'given', ...ADMIN },
  });
  const { url } = await server.start();

  const request = async <T = Json>(method: string, path: string, body?: unknown, o: RequestOptions = {}) => {
    const headers: Record<string, string> = { ...o.headers };
    if (o.token) headers['Service-Auth'] = o.token;
    if (o.cookie) headers['Cookie'] = o.cookie;
    let payload: string | undefined = o.raw;
    if (payload === undefined && body !== undefined) payload = JSON.stringify(body);
    if (payload !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
      headers['Content-Type'] = 'application/json';
    }
    const res = await fetch(url + path, { method, headers, body: payload, redirect: o.redirect ?? 'manual' });
    const text = await res.text();
    let parsed: unknown = text;
    // A HEAD answer has the headers of its GET but no body: only its status is checked.
    const head = method.toUpperCase() === 'HEAD';
    if (!head && (res.headers.get('content-type') ?? '').includes('application/json')) parsed = JSON.parse(text);
    if (!o.unchecked && path.startsWith('/api/')) checkResponse(method.toLowerCase(), path.split('?')[0]!, res.status, parsed, head, res.headers.get('content-type') ?? '');
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  };

  return {
    url,
    config,
    dataDir,
    logs: () => logText,
    events: server.events,
    request,
    runCleanup: () => server.runCleanup(),
    async login(account, password) {
      const res = await request<{ success: boolean; token: string }>('POST', '/api/v2/open/auth/login', { account, password });
      if (!res.body.success) throw new Error(`login of ${account} failed: ${res.text}`);
      return res.body.token;
    },
    async stop() {
      await server.stop();
      if (ownDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
};
