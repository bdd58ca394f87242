/**
 * The player WebSocket on the HTTP server's `upgrade` event:
 * `GET /api/v1/player[/<id>]`. Access per `player.access` is checked on the
 * upgrade request (token in header `Service-Auth` or cookie `service_auth`;
 * 401/403 answer the upgrade). Sockets count against
 * `limits.websockets-per-user` (per account, per client address when
 * anonymous) and `limits.websockets` in all, so they stay below the daemon's
 * `max_connections`; beyond either the upgrade gets 429 (refusals take their
 * status from `error-mapping.ts`). Each socket gets its own daemon
 * connection in an idle loop (server/player/session.ts), whose commands are
 * checked against the caller's command class. Protocol: docs/websocket.md.
 */
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { Envelope } from '../player/answers/convert.js';
import { errorEnvelope } from '../player/answers/convert.js';
import { DaemonError } from '../player/protocol/connection.js';
import { playerCommandOf } from '../player/commands.js';
import type { PlayerSession, SessionAccess } from '../player/session.js';
import type { HttpDeps } from './http-deps.js';
import { requestToken } from './request-context.js';
import { playerAccessCheck, playerCaller } from './player-access.js';
import { failureOf, type Failure } from './error-mapping.js';
import { AppError, forbidden, notFound } from '../common/errors.js';
import { crossOriginUpgrade } from './zones.js';
import { misdirected } from './host-check.js';
import { signedIn } from './connection-limits.js';

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

/** Answers the upgrade request with the status and headers of the error mapping and an `Error` envelope, and closes. */
const refuse = (socket: Duplex, f: Failure): void => {
  const text = JSON.stringify(errorEnvelope(f.message));
  const headers = Object.entries(f.headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
  socket.end(
    `HTTP/1.1 ${f.status} ${STATUS_CODES[f.status] ?? ''}\r\nConnection: close\r\n${headers}` +
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
  );
};

interface Live {
  ws: WebSocket;
  session: PlayerSession;
  alive: boolean;
}

/**
 * Places for sockets, taken before the daemon connection is opened (so
 * parallel upgrades cannot overshoot) and given back when the socket closes
 * or the upgrade fails.
 */
class SocketPlaces {
  private total = 0;
  private readonly perKey = new Map<string, number>();

  constructor(
    private readonly perUser: number,
    private readonly all: number,
  ) {}

  /** A release function, or a refusal message when a limit is reached. */
  take(key: string): { release: () => void } | { refused: string } {
    const mine = this.perKey.get(key) ?? 0;
    if (mine >= this.perUser) return { refused: `At most ${this.perUser} player WebSockets may be open at once per user; close one first.` };
    if (this.total >= this.all) return { refused: 'Too many player WebSockets are open; try again later.' };
    this.total++;
    this.perKey.set(key, mine + 1);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.total--;
        const n = (this.perKey.get(key) ?? 1) - 1;
        if (n <= 0) this.perKey.delete(key);
        else this.perKey.set(key, n);
      },
    };
  }
}

export const createPlayerSockets = (deps: HttpDeps): PlayerSockets => {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  const live = new Set<Live>();
  const log = deps.log.child('websocket');
  const places = new SocketPlaces(deps.config.limits.websocketsPerUser, deps.config.limits.websockets);

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

  const attach = (ws: WebSocket, session: PlayerSession, early: { frames: Envelope[]; lost?: string }, bind: (ws: WebSocket) => void, release: () => void) => {
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
      let frame: unknown;
      try {
        frame = JSON.parse(Buffer.isBuffer(data) ? data.toString('utf8') : String(data));
      } catch {
        frame = undefined;
      }
      const command = playerCommandOf(frame);
      if (command === undefined) {
        ws.send(JSON.stringify(errorEnvelope('A frame must be JSON of the form {"command": "..."} or {"commandRaw": "<base64>"}.')));
        return;
      }
      session.command(command);
    });
    ws.on('close', () => {
      live.delete(l);
      session.close();
      release();
    });
    ws.on('error', (e) => {
      log.debug('WebSocket error', { error: String(e) });
    });
  };

  /** Refuses the upgrade with the answer of the one error mapping. */
  const fail = (req: IncomingMessage, socket: Duplex, e: unknown, what?: string): void => refuse(socket, failureOf(e, log, { path: req.url }, what));

  const handle = async (req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> => {
    const foreign = deps.links.foreignHost(req);
    if (foreign !== undefined) {
      fail(req, socket, misdirected(foreign));
      return;
    }
    const m = pathPattern.exec(req.url ?? '');
    if (!m) {
      fail(req, socket, notFound());
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
      fail(req, socket, notFound(`The player connection '${id}'`));
      return;
    }
    const token = requestToken(req);
    const { claims, refuse: refused } = await playerAccessCheck(deps.auth, deps.config.player.access, token);
    if (refused?.code === 'unauthenticated') {
      fail(req, socket, refused);
      return;
    }
    // A page of another origin never drives the player, with or without the visitor's cookie, whatever `player.access` says.
    if (refused || crossOriginUpgrade(req, deps.links)) {
      fail(req, socket, forbidden());
      return;
    }
    if (claims) signedIn(socket);
    const place = places.take(claims ? `account:${claims.accountId}` : `address:${deps.origin.clientAddress(req)}`);
    if ('refused' in place) {
      fail(req, socket, new AppError('rate-limited', place.refused));
      return;
    }
    // Access is checked again before every command: a revoked session, a disabled account or a demotion counts at once.
    const access: SessionAccess = async () => {
      if (!claims) return { caller: playerCaller(undefined) };
      const now = await playerAccessCheck(deps.auth, deps.config.player.access, token);
      if (now.refuse) return { refused: 'Access to the music player has been revoked; sign in again.' };
      return { caller: playerCaller(now.claims) };
    };
    let attached = false;
    try {
      attached = await openAndAttach(req, socket, head, id, access, place.release);
    } finally {
      if (!attached) place.release();
    }
  };

  /** Opens the daemon session and completes the upgrade; false when the socket never opened. */
  const openAndAttach = async (req: IncomingMessage, socket: Duplex, head: Buffer, id: string, access: SessionAccess, release: () => void): Promise<boolean> => {
    const gateway = deps.player!.gateway;
    const early: { frames: Envelope[]; lost?: string } = { frames: [] };
    let ws: WebSocket | undefined;
    let session: PlayerSession;
    try {
      session = await gateway.openSession(
        id,
        {
          send: (env) => {
            if (ws) {
              if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(env));
            } else early.frames.push(env);
          },
          lost: (reason, revoked) => {
            if (ws) ws.close(revoked ? 1008 : 1011, reasonText(reason));
            else early.lost = reason;
          },
        },
        access,
      );
    } catch (e) {
      if (!(e instanceof DaemonError)) throw e;
      fail(req, socket, e);
      return false;
    }
    if (socket.destroyed) {
      session.close();
      return false;
    }
    // Without `verifyClient`, ws completes (or aborts) the upgrade before handleUpgrade returns.
    let upgraded = false;
    wss.handleUpgrade(req, socket, head, (client) => {
      upgraded = true;
      attach(
        client,
        session,
        early,
        (w) => {
          ws = w;
        },
        release,
      );
    });
    if (!upgraded) session.close();
    return upgraded;
  };

  return {
    upgrade(req, socket, head) {
      socket.on('error', () => socket.destroy());
      handle(req, socket, head).catch((e: unknown) => {
        if (!socket.destroyed) fail(req, socket, e, 'Player WebSocket upgrade failed');
        else log.error('Player WebSocket upgrade failed', { error: String(e) });
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
