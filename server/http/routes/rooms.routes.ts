/**
 * Rooms (CONTRACT §4.1). Owner routes below `/api/v1/rooms` pass the
 * gateway's access rule (`playerZone`) and need an account; guest routes below
 * `/api/v1/room/{id}` need the room's token in `Service-Room` (checked per
 * request, so a token ends with its room or its guest); `/api/v1/open/room`
 * is for anyone with the link. The WebSocket is in `room-sockets.ts`.
 */
import type { IncomingMessage } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import { AppError, badRequest, notFound, unauthenticated } from '../../common/errors.js';
import type { TokenClaims } from '../../core/auth/token.js';
import type { Owner, RoomGuest, RoomService } from '../../core/rooms/room.service.js';
import type { RoomInput } from '../../core/rooms/room.types.js';
import type { HttpDeps, RouteModule } from '../http-deps.js';
import { sendAlbumFile } from '../send-album-file.js';

export const ROOM_HEADER = 'service-room';

/** The room token of a request: header `Service-Room`, else (WebSocket only) the `token` query parameter. */
export const roomToken = (req: IncomingMessage, allowQuery = false): string | undefined => {
  const raw = req.headers[ROOM_HEADER];
  const header = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (header) return header;
  if (!allowQuery) return undefined;
  const q = new URL(req.url ?? '/', 'http://x').searchParams.get('token');
  return q ?? undefined;
};

const rooms = (deps: HttpDeps): RoomService => {
  if (!deps.rooms) throw notFound('The music player gateway');
  return deps.rooms;
};

/** `/api/v1/rooms`: after `playerZone`, a signed-in account (anonymous callers of an `open` gateway own no rooms). */
export const requireRoomOwner: RequestHandler = (_req, res, next) => {
  if (!res.locals['caller']) throw unauthenticated();
  next();
};

const owner = (res: Response): Owner => {
  const c = res.locals['caller'] as TokenClaims;
  return { accountId: c.accountId, admin: c.admin };
};

const guestOf = (deps: HttpDeps, req: Request): Promise<RoomGuest> => rooms(deps).guest(String(req.params['id']), roomToken(req));

const MAX_THUMBNAIL_SIZE = 4096;

export const roomRoutes: RouteModule = (api, deps) => {
  api.route('post', '/api/v1/rooms', async (req, res) => {
    res.json(await rooms(deps).create(owner(res), req.body as RoomInput));
  });
  api.route('get', '/api/v1/rooms', async (_req, res) => {
    res.json({ items: await rooms(deps).list(owner(res)) });
  });
  api.route('get', '/api/v1/rooms/added-by', async (req, res) => {
    const connection = typeof req.query['connection'] === 'string' ? req.query['connection'] : 'default';
    res.json({ items: await rooms(deps).addedBy(connection) });
  });
  api.route('get', '/api/v1/rooms/{id}', async (req, res) => {
    res.json(await rooms(deps).get(owner(res), String(req.params['id'])));
  });
  api.route('put', '/api/v1/rooms/{id}', async (req, res) => {
    res.json(await rooms(deps).update(owner(res), String(req.params['id']), req.body as RoomInput));
  });
  api.route('delete', '/api/v1/rooms/{id}', async (req, res) => {
    res.json(await rooms(deps).remove(owner(res), String(req.params['id'])));
  });
  api.route('delete', '/api/v1/rooms/{id}/guests/{guestId}', async (req, res) => {
    res.json(await rooms(deps).signOut(owner(res), String(req.params['id']), String(req.params['guestId'])));
  });

  api.route('get', '/api/v1/open/room/{id}', async (req, res) => {
    res.json(await rooms(deps).info(String(req.params['id'])));
  });
  api.route('post', '/api/v1/open/room/{id}/join', async (req, res) => {
    const name = (req.body as { name?: unknown } | undefined)?.name;
    res.json(await rooms(deps).join(String(req.params['id']), name, deps.origin.clientAddress(req)));
  });

  api.route('get', '/api/v1/room/{id}/state', async (req, res) => {
    const g = await guestOf(deps, req);
    res.json(await rooms(deps).state(g));
  });
  api.route('get', '/api/v1/room/{id}/search', async (req, res) => {
    const g = await guestOf(deps, req);
    const q = String(req.query['q'] ?? '');
    const range = String(req.query['range'] ?? '0:50');
    const m = /^(\d+):(\d+)$/.exec(range);
    if (!m) throw badRequest('range', "'range' must be start:end, for example 0:50.");
    const start = Number(m[1]);
    const end = Number(m[2]);
    if (end < start) throw badRequest('range', "'range' must end after it starts.");
    res.json({ items: await rooms(deps).search(g, q, start, end) });
  });
  api.route('post', '/api/v1/room/{id}/queue', async (req, res) => {
    const g = await guestOf(deps, req);
    res.json(await rooms(deps).add(g, String((req.body as { file: string }).file)));
  });
  api.route('delete', '/api/v1/room/{id}/queue/{songId}', async (req, res) => {
    const g = await guestOf(deps, req);
    res.json(await rooms(deps).removeSong(g, String(req.params['songId'])));
  });
  api.route('post', '/api/v1/room/{id}/skip', async (req, res) => {
    const g = await guestOf(deps, req);
    res.json(await rooms(deps).skip(g));
  });
  api.route('get', '/api/v1/room/{id}/cover', async (req, res) => {
    const g = await guestOf(deps, req);
    const file = String(req.query['file'] ?? '');
    if (!file || /[\n\r\0]/.test(file) || file.includes('://')) throw badRequest('file', "'file' must be a song of the music library.");
    const rawSize = req.query['size'];
    const n = rawSize === undefined || rawSize === '' ? 0 : Number(rawSize);
    const size = n > 0 && n <= MAX_THUMBNAIL_SIZE ? n : undefined;
    const r = await deps.player!.covers.file(g.room.connection, 'cover', file, size);
    await sendAlbumFile(req, res, 'cover', r, deps.log.child('rooms'));
  });
  api.route('get', '/api/v1/room/{id}/events', async (req) => {
    await guestOf(deps, req);
    throw new AppError('upgrade-required', 'This URL is the room WebSocket; open a WebSocket.', { headers: { Upgrade: 'websocket' } });
  });
};
