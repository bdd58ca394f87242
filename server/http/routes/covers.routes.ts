/**
 * Covers and booklets: `/api/v1/{cover|booklet}[/<id>]/album?name=`,
 * `.../file/<path in the music directory>`, `POST .../clearcache`. Files are
 * sent by `send-file.ts`.
 */
import type { Request, RequestHandler } from 'express';
import { badRequest } from '../../common/errors.js';
import { ok } from '../../common/result.js';
import type { AlbumFileKind } from '../../player/covers/covers.service.js';
import { isSafeArgument, unsafeArgumentMessage } from '../../player/protocol/command-line.js';
import type { HttpDeps, RouteModule } from '../http-deps.js';
import { sendAlbumFile as send } from '../send-album-file.js';
import { connectionId } from '../player-access.js';

const filePathPattern = /^\/api\/v1\/(cover|booklet)\/(?:file|[^/]+\/file)\/(.*)$/;

/**
 * `.../file/Artist/Album/song.flac` arrives with real slashes, but a route
 * parameter is one path segment: encode the slashes of the file part
 * (`%2F` is accepted as well), so both spellings reach the same route.
 */
export const coverPathRewrite: RequestHandler = (req, _res, next) => {
  const q = req.url.indexOf('?');
  const path = q < 0 ? req.url : req.url.slice(0, q);
  const m = filePathPattern.exec(path);
  if (m && m[2]!.includes('/')) {
    const head = path.slice(0, path.length - m[2]!.length);
    req.url = head + m[2]!.replace(/\//g, '%2F') + (q < 0 ? '' : req.url.slice(q));
  }
  next();
};

/** The largest thumbnail edge made on request. */
const MAX_THUMBNAIL_SIZE = 4096;

const sizeParam = (req: Request): number | undefined => {
  const raw = req.query['size'];
  const v = Array.isArray(raw) ? raw[raw.length - 1] : raw;
  if (v === undefined || v === '') return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw badRequest('size', "'size' must be a whole number of pixels.");
  // only a cover larger than `size` is resized: above the largest thumbnail made, every cover is the original
  return n === 0 || n > MAX_THUMBNAIL_SIZE ? undefined : n;
};

/** A value that goes into a daemon command: a line break, CR or NUL would end it and start another (400). */
const daemonArgument = (field: string, label: string, value: string): string => {
  if (!isSafeArgument(value)) throw badRequest(field, unsafeArgumentMessage(label));
  return value;
};


export const coverRoutes: RouteModule = (api, deps: HttpDeps) => {
  const covers = () => deps.player!.covers;
  const log = deps.log.child('covers');
  for (const kind of ['cover', 'booklet'] as AlbumFileKind[]) {
    const album: RequestHandler = async (req, res) => {
      const id = connectionId(deps, req.params);
      const name = daemonArgument('name', 'The album name', String(req.query['name'] ?? ''));
      const size = kind === 'cover' ? sizeParam(req) : undefined;
      await send(req, res, kind, await covers().album(id, kind, name, size), log);
    };
    const file: RequestHandler = async (req, res) => {
      const id = connectionId(deps, req.params);
      const uri = daemonArgument('uri', 'The file path', String(req.params['uri'] ?? ''));
      const size = kind === 'cover' ? sizeParam(req) : undefined;
      await send(req, res, kind, await covers().file(id, kind, uri, size), log);
    };
    const clear: RequestHandler = (req, res) => {
      connectionId(deps, req.params);
      covers().clearCache();
      res.json(ok('player.covers-cleared', 'The cover cache was cleared.'));
    };
    // Literal paths first: `/cover/file/album` is the file `album`, not the album route of a connection `file`.
    api.route('get', `/api/v1/${kind}/album`, album);
    api.route('get', `/api/v1/${kind}/file/{uri}`, file);
    api.route('post', `/api/v1/${kind}/clearcache`, clear);
    api.route('get', `/api/v1/${kind}/{id}/album`, album);
    api.route('get', `/api/v1/${kind}/{id}/file/{uri}`, file);
    api.route('post', `/api/v1/${kind}/{id}/clearcache`, clear);
  }
};
