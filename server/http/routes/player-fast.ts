/**
 * The fast path of `POST /api/v1/player[/<id>]`, in front of express.
 *
 * Why: the gateway's one hot route passes a tiny command to the daemon and
 * back; express' per-request machinery costs more than the whole round trip
 * (the gateway must keep at least half the throughput of a bare node:http
 * forwarder, see bench/gateway.bench.ts). So the plain case is answered
 * here: player enabled, known connection, access granted, a JSON body of
 * exactly `{"command": string}`; the command classes apply here as on
 * every other path (gateway.execute).
 * Every other request (wrong type, refused access, unknown id, a body that
 * does not match the OpenAPI schema) goes on to express unchanged, where the
 * registered route, the OpenAPI validation and the one error mapping apply;
 * a body already read is handed over as `req.body` (body-parser skips a
 * request whose body was consumed).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { badRequest } from '../../common/errors.js';
import { errorResult, internalErrorResult } from '../error-mapping.js';
import type { HttpDeps } from '../http-deps.js';
import { requestToken } from '../request-context.js';
import { playerAccessCheck, playerCaller, statusOfOutcome } from './player-access.js';

const pathPattern = /^\/api\/v1\/player(?:\/([A-Za-z0-9_@.-]{1,254}))?\/?$/;
/** the same limit as express.json() in http-app.ts */
const MAX_BODY = 1024 * 1024;
const MAX_COMMAND = 1_000_000;

const readBody = (req: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.on('error', reject);
  });

const send = (res: ServerResponse, status: number, body: unknown): void => {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'same-origin',
  });
  res.end(text);
};

/**
 * Returns a request listener: the fast path where it applies, `fallback`
 * (the express app) otherwise.
 */
export const withPlayerFastPath =
  (deps: HttpDeps, fallback: (req: IncomingMessage, res: ServerResponse) => void) =>
  (req: IncomingMessage, res: ServerResponse): void => {
    if (req.method !== 'POST' || !req.url?.startsWith('/api/v1/player')) return fallback(req, res);
    const m = pathPattern.exec(req.url);
    const gateway = deps.player?.gateway;
    const length = Number(req.headers['content-length']);
    if (
      !m ||
      !gateway ||
      !deps.config.player.enabled ||
      !gateway.has(m[1] ?? 'default') ||
      !(length > 0 && length <= MAX_BODY) ||
      req.headers['content-type']?.split(';')[0]?.trim().toLowerCase() !== 'application/json'
    ) {
      return fallback(req, res);
    }
    void handle(deps, req, res, m[1] ?? 'default', fallback);
  };

const handle = async (
  deps: HttpDeps,
  req: IncomingMessage,
  res: ServerResponse,
  id: string,
  fallback: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<void> => {
  try {
    const { claims, refuse } = await playerAccessCheck(deps.auth, deps.config.player.access, requestToken(req));
    if (refuse) return fallback(req, res); // express answers 401/403 the usual way
    const raw = await readBody(req);
    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      send(res, 400, errorResult(badRequest('body', 'The request body is not valid JSON.')));
      return;
    }
    const command = (body as { command?: unknown } | null)?.command;
    if (typeof body !== 'object' || body === null || Array.isArray(body) || Object.keys(body).length !== 1 || typeof command !== 'string' || command.length > MAX_COMMAND) {
      (req as IncomingMessage & { body?: unknown }).body = body;
      return fallback(req, res);
    }
    const answer = await deps.player!.gateway.execute(id, command, playerCaller(claims));
    send(res, statusOfOutcome(answer.outcome), answer.body);
  } catch (e) {
    deps.log.child('http').error('Unexpected error in the player command route', { error: e instanceof Error ? e.message : String(e) });
    if (!res.headersSent) send(res, 500, internalErrorResult());
    else res.destroy();
  }
};
