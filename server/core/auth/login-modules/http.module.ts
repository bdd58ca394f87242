import Mustache from 'mustache';
import type { Logger } from '../../../common/log.js';
import type { Config } from '../../../config/types.js';
import { external, failed, type LoginModule } from './login-module.js';

/** How long an authentication endpoint may take to answer (headers). */
export const authRequestTimeoutMs = 10_000;

type Encoder = (value: string) => string;

const jsonString: Encoder = (value) => JSON.stringify(value).slice(1, -1);
const raw: Encoder = (value) => value;

const xmlText: Encoder = (value) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] as string);

/**
 * The escaping a body of this content type needs for `{{user}}`/`{{pass}}`:
 * JSON string escapes for JSON, percent-encoding for form bodies, entities for
 * XML; other types (`text/plain`) get the values as they are.
 */
const bodyEncoder = (contentType: string): Encoder => {
  const mime = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  if (mime === 'application/x-www-form-urlencoded') return encodeURIComponent;
  if (mime === 'application/json' || mime.endsWith('+json')) return jsonString;
  if (mime === 'application/xml' || mime === 'text/xml' || mime.endsWith('+xml')) return xmlText;
  return raw;
};

/**
 * Renders a mustache template with `{{user}}` and `{{pass}}`, each value
 * passed through `encode`. The values are encoded before mustache sees them,
 * so every tag form gets the encoded value: `{{{pass}}}` and `{{&pass}}`,
 * which skip mustache's escaping, cannot place a raw password in a URL or
 * body where it could add or override fields.
 */
export const renderCredentials = (template: string, user: string, pass: string, encode: Encoder): string =>
  Mustache.render(template, { user: encode(user), pass: encode(pass) }, {}, { escape: (v: unknown) => String(v) });

/** The configured URL for logs: origin and path only (a query may hold a static key). */
export const logTarget = (template: string): string => {
  try {
    const u = new URL(template);
    return `${u.origin}${u.pathname}`;
  } catch {
    return 'the configured URL';
  }
};

/**
 * Why a `fetch` failed, without its message: a message may quote the URL,
 * and the URL may carry the password.
 */
export const requestFailureReason = (e: unknown): string => {
  if (!(e instanceof Error)) return 'unknown error';
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return 'timeout';
  const cause = (e as { cause?: { code?: unknown } }).cause;
  return typeof cause?.code === 'string' ? cause.code : e.name;
};

/**
 * Sends one request (no redirects followed, 10 s timeout) and tells whether
 * it answered 2xx. Failures are logged at warn with `reason`, never with the
 * request (URL and body may contain the password).
 */
export const answeredOk = async (
  log: Logger,
  login: string,
  target: string,
  request: () => Promise<Response>,
): Promise<boolean> => {
  try {
    const res = await request();
    await res.body?.cancel().catch(() => undefined);
    if (res.status >= 200 && res.status < 300) return true;
    log.warn('Login refused by the authentication endpoint', { login, target, status: res.status });
  } catch (e) {
    log.warn('Authentication endpoint failed', { login, target, reason: requestFailureReason(e) });
  }
  return false;
};

/**
 * The `http` module: renders `url` (values percent-encoded) and, for POST,
 * `body` (escaped for its `content-type`) and sends the request. 2xx is a
 * success (source `extern`), anything else or no answer a failure. It always
 * answers, so modules after it are never reached.
 */
export const httpModule = (cfg: Config['backend']['auth']['http'], log: Logger): LoginModule => {
  const method = cfg.method.trim().toUpperCase() || 'POST';
  return {
    name: 'http',
    order: cfg.order,
    async check(login, password) {
      const ok = await answeredOk(log, login, logTarget(cfg.url), () => {
        const url = renderCredentials(cfg.url, login, password, encodeURIComponent);
        const init: RequestInit = { method, redirect: 'manual', signal: AbortSignal.timeout(authRequestTimeoutMs) };
        if (method === 'POST') {
          init.body = renderCredentials(cfg.body, login, password, bodyEncoder(cfg.contentType));
          if (cfg.contentType) init.headers = { 'content-type': cfg.contentType };
        }
        return fetch(url, init);
      });
      return ok ? external(login) : failed;
    },
  };
};
