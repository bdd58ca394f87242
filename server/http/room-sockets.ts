/**
 * The room WebSocket: `GET /api/v1/room/<id>/events` with the guest's token
 * (header `Service-Room` or query `token`). A `RoomState` frame at once and
 * after every change of the player or the queue; frames from the guest are
 * ignored (guests act through the HTTP routes). Closed with 1008 and a
 * reason when the room closes or expires or the guest is signed out.
 * Sockets count per guest (at most 4) and in all (`limits.websockets`),
 * apart from the player's; none holds a daemon connection of its own.
 */
import type { IncomingMessage } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { AppError, notFound } from '../common/errors.js';
import { errorEnvelope } from '../player/answers/convert.js';
import { failureOf } from './error-mapping.js';
import type { HttpDeps } from './http-deps.js';
import { roomToken } from './routes/rooms.routes.js';

export const roomSocketPath = /^\/api\/v1\/room\/([^/?]+)\/events\/?(?:\?.*)?$/;

const PER_GUEST = 4;

export interface RoomSockets {
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  close(): void;
}

export const createRoomSockets = (deps: HttpDeps): RoomSockets => {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 4096 });
  const log = deps.log.child('room-websocket');
  const perGuest = new Map<string, number>();
  let total = 0;
  const ends = new Set<() => void>();

  const refuse = (req: IncomingMessage, socket: Duplex, e: unknown): void => {
    const f = failureOf(e, log, { path: req.url });
    const text = JSON.stringify(errorEnvelope(f.message));
    const headers = Object.entries(f.headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
    socket.end(
      `HTTP/1.1 ${f.status} ${STATUS_CODES[f.status] ?? ''}\r\nConnection: close\r\n${headers}` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
    );
  };

  const handle = async (req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> => {
    const m = roomSocketPath.exec(req.url ?? '');
    if (!m || !deps.rooms) throw notFound('The room');
    let id: string;
    try {
      id = decodeURIComponent(m[1]!);
    } catch {
      throw notFound('The room');
    }
    const guest = await deps.rooms.guest(id, roomToken(req, true));
    const mine = perGuest.get(guest.guest.id) ?? 0;
    if (mine >= PER_GUEST || total >= deps.config.limits.websockets) throw new AppError('rate-limited', 'Too many room pages are open; close one first.', { retryAfterSeconds: 10 });
    perGuest.set(guest.guest.id, mine + 1);
    total++;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      total--;
      const n = (perGuest.get(guest.guest.id) ?? 1) - 1;
      if (n <= 0) perGuest.delete(guest.guest.id);
      else perGuest.set(guest.guest.id, n);
    };
    if (socket.destroyed) {
      release();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      let unsubscribe: (() => void) | undefined;
      const end = (reason: string) => ws.close(1008, reason.slice(0, 120));
      const endAll = () => ws.close(1001, 'The server is shutting down.');
      ends.add(endAll);
      ws.on('close', () => {
        ends.delete(endAll);
        unsubscribe?.();
        release();
      });
      ws.on('error', (e) => log.debug('Room WebSocket error', { error: String(e) }));
      deps
        .rooms!.follow(
          guest,
          (state) => {
            if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ type: 'RoomState', ...state }));
          },
          end,
        )
        .then((u) => {
          if (ws.readyState === ws.OPEN || ws.readyState === ws.CONNECTING) unsubscribe = u;
          else u();
        })
        .catch((e: unknown) => {
          const f = failureOf(e, log, { path: req.url });
          ws.close(f.status === 404 ? 1008 : 1011, f.message.slice(0, 120));
        });
    });
  };

  return {
    upgrade(req, socket, head) {
      socket.on('error', () => socket.destroy());
      handle(req, socket, head).catch((e: unknown) => {
        if (!socket.destroyed) refuse(req, socket, e);
      });
    },
    close() {
      for (const e of [...ends]) e();
      wss.close();
    },
  };
};
