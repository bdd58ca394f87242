/**
 * The player WebSocket on the HTTP server's `upgrade` event:
 * `GET /api/v1/player[/<id>]`. Access per `player.access` is checked on the
 * upgrade request (token in header `Service-Auth` or cookie `service_auth`;
 * 401/403 answer the upgrade). Each socket gets its own daemon connection in
 * an idle loop (server/player/session.ts). Protocol: docs/websocket.md.
 */
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { Envelope } from '../player/answers/convert.js';
import { errorEnvelope } from '../player/answers/convert.js';
import { DaemonError } from '../player/protocol/connection.js';
import type { PlayerSession } from '../player/session.js';
import type { HttpDeps } from './http-deps.js';
import { requestToken } from './request-context.js';
import { playerAccessCheck } from './routes/player-access.js';
import { statusOf } from './error-mapping.js';
import { crossOriginWithCookie } from './zones.js';

export interface PlayerSockets {
  /** the `upgrade` listener of the node:http server */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** closes every socket (server shutdown) */
  close(): void;
}

const pathPattern = /^\/api\/v1\/player(?:\/([^/?]+))?\/?(?:\?.*)?$/;
const HEARTBEAT_MS = 30_000;
const MAX_REASON_BYTES = 123;

const reasonText = (reason: string): string => {
  let r = reason;
  while (Buffer.byteLength(r) > MAX_REASON_BYTES) r = r.slice(0, -2);
  return r;
};

const refuse = (socket: Duplex, status: number, body: object, extra = ''): void => {
  const text = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nConnection: close\r\n${extra}` +
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
  );
};

interface Live {
  ws: WebSocket;
  session: PlayerSession;
  alive: boolean;
}

export const createPlayerSockets = (deps: HttpDeps): PlayerSockets => {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  const live = new Set<Live>();
  const log = deps.log.child('websocket');

  const heartbeat = setInterval(() => {
    for (const l of live) {
      if (!l.alive) {
        l.ws.terminate();
        continue;
      }
      l.alive = false;
      l.ws.ping();
    }
  }, HEARTBEAT_MS);
  heartbeat.unref();

  const attach = (ws: WebSocket, session: PlayerSession, early: { frames: Envelope[]; lost?: string }, bind: (ws: WebSocket) => void) => {
    const l: Live = { ws, session, alive: true };
    live.add(l);
    bind(ws);
    for (const f of early.frames) ws.send(JSON.stringify(f));
    if (early.lost !== undefined) ws.close(1011, reasonText(early.lost));
    ws.on('pong', () => {
      l.alive = true;
    });
    ws.on('message', (data: RawData, isBinary: boolean) => {
      l.alive = true;
      if (isBinary) {
        ws.send(JSON.stringify(errorEnvelope('Send commands as text frames: {"command": "..."}')));
        return;
      }
      let command: unknown;
      try {
        command = (JSON.parse(Buffer.isBuffer(data) ? data.toString('utf8') : String(data)) as { command?: unknown })?.command;
      } catch {
        command = undefined;
      }
      if (typeof command !== 'string') {
        ws.send(JSON.stringify(errorEnvelope('A frame must be JSON of the form {"command": "..."}.')));
        return;
      }
      session.command(command);
    });
    ws.on('close', () => {
      live.delete(l);
      session.close();
    });
    ws.on('error', (e) => {
      log.debug('WebSocket error', { error: String(e) });
    });
  };

  const handle = async (req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> => {
    const m = pathPattern.exec(req.url ?? '');
    if (!m) {
      refuse(socket, 404, { success: false, message: 'The requested resource was not found.' });
      return;
    }
    const gateway = deps.player?.gateway;
    let id = 'default';
    try {
      if (m[1] !== undefined) id = decodeURIComponent(m[1]);
    } catch {
      id = '';
    }
    if (!deps.config.player.enabled || !gateway || !gateway.has(id)) {
      refuse(socket, 404, { success: false, message: `The player connection '${id}' was not found.` });
      return;
    }
    const token = requestToken(req);
    const { refuse: status } = await playerAccessCheck(deps.auth, deps.config.player.access, token);
    if (status === 401) {
      refuse(socket, 401, { success: false, message: 'Authentication failed.' });
      return;
    }
    // A token from the cookie only counts for pages of this origin (no cross-site WebSocket hijacking).
    if (status === 403 || (deps.config.player.access !== 'open' && crossOriginWithCookie(req, deps.config))) {
      refuse(socket, 403, { success: false, message: 'Access denied.' });
      return;
    }

    const early: { frames: Envelope[]; lost?: string } = { frames: [] };
    let ws: WebSocket | undefined;
    let session: PlayerSession;
    try {
      session = await gateway.openSession(id, {
        send: (env) => {
          if (ws) {
            if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(env));
          } else early.frames.push(env);
        },
        lost: (reason) => {
          if (ws) ws.close(1011, reasonText(reason));
          else early.lost = reason;
        },
      });
    } catch (e) {
      if (!(e instanceof DaemonError)) throw e;
      log.warn('Player WebSocket refused: daemon not available', { connection: id, error: e.message });
      refuse(socket, statusOf[e.kind], errorEnvelope(e.message));
      return;
    }
    if (socket.destroyed) {
      session.close();
      return;
    }
    wss.handleUpgrade(req, socket, head, (client) => {
      attach(client, session, early, (w) => {
        ws = w;
      });
    });
  };

  return {
    upgrade(req, socket, head) {
      socket.on('error', () => socket.destroy());
      handle(req, socket, head).catch((e: unknown) => {
        log.error('Player WebSocket upgrade failed', { error: String(e) });
        if (!socket.destroyed) refuse(socket, 500, { success: false, message: 'An unexpected error occurred.' });
      });
    },
    close() {
      clearInterval(heartbeat);
      for (const l of live) {
        l.session.close();
        l.ws.close(1001, 'The server is shutting down.');
        l.ws.terminate();
      }
      live.clear();
      wss.close();
    },
  };
};
