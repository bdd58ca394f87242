/**
 * Covers and booklets: found next to the songs (see album-files.ts), for an
 * album through the daemon (one song of the album, then its folder), with a
 * cover embedded in the song (`readpicture`) as the last resort before the
 * placeholder. Lookups are cached (path-cache.ts); thumbnails made on request.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import type { Logger } from '../../common/log.js';
import type { Config } from '../../config/types.js';
import type { PlayerGateway } from '../gateway.service.js';
import { DaemonError } from '../protocol/connection.js';
import { quoteArg } from '../protocol/reply.js';
import { resolveInside, type Resolved } from '../files/safe-path.js';
import { candidates, findAlbumFile } from './album-files.js';
import { PathCache } from './path-cache.js';
import { etagOf, Placeholders } from './placeholder.js';
import { Thumbnailer } from './thumbnails.js';

export type AlbumFileKind = 'cover' | 'booklet';

export type CoverResult =
  | { kind: 'file'; path: string; size: number; contentType: string; etag: string; filename: string }
  | { kind: 'bytes'; data: Buffer; contentType: string; etag: string; filename: string }
  | { kind: 'not-found' };

export interface CoverService {
  /**
   * Any caller allowed by `player.access`: the cover or booklet of an album
   * (asking daemon `id` for one of its songs). A missing cover is the
   * placeholder; a missing booklet is `not-found`. Throws `DaemonError`
   * when the daemon is needed and cannot answer.
   */
  album(id: string, kind: AlbumFileKind, album: string, size?: number): Promise<CoverResult>;
  /**
   * The cover or booklet for a song or folder given by its path in the music
   * directory; `not-found` when the path is not there or leads outside.
   */
  file(id: string, kind: AlbumFileKind, uri: string, size?: number): Promise<CoverResult>;
  /** Empties the lookup cache (covers and booklets). */
  clearCache(): void;
}

const contentTypes: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.pdf': 'application/pdf',
  '.bmp': 'image/bmp',
};
const extensionOf: Record<string, string> = { 'image/jpeg': '.jpg', 'image/png': '.png', 'image/webp': '.webp', 'image/gif': '.gif' };

export const contentTypeOf = (path: string): string => contentTypes[extname(path).toLowerCase()] ?? 'application/octet-stream';

export const fileEtag = (path: string, size: number, mtimeMs: number): string => etagOf(`${path}\0${size}\0${mtimeMs}`);

export interface CoverDeps {
  config: Config['player'];
  gateway: PlayerGateway;
  log: Logger;
}

export const createCoverService = ({ config, gateway, log }: CoverDeps): CoverService => {
  const cache = new PathCache(config.cacheSize);
  const thumbs = new Thumbnailer(config.thumbnails.directory, config.thumbnails.maxParallel, config.thumbnails.sizes, log.child('thumbnails'));
  const placeholders = new Placeholders(config.placeholderUrl, log.child('placeholder'));
  const names: Record<AlbumFileKind, string[]> = {
    cover: candidates(config.cover.names, config.cover.extensions),
    booklet: candidates(config.booklet.names, config.booklet.extensions),
  };
  const embeddedDir = join(config.thumbnails.directory, 'embedded');

  /** The picture embedded in a song, kept as a file so it gets an ETag and thumbnails like any cover. */
  const embedded = async (id: string, uri: string, song: Resolved): Promise<string | undefined> => {
    const key = createHash('sha256').update(`${song.path}\0${song.stats.mtimeMs}`).digest('hex');
    for (const ext of Object.values(extensionOf)) {
      const f = join(embeddedDir, key + ext);
      if (await stat(f).then(() => true, () => false)) return f;
    }
    const chunks: Buffer[] = [];
    let total = 0;
    let type = '';
    for (let offset = 0; ; ) {
      const reply = await gateway.query(id, `readpicture ${quoteArg(uri)} ${offset}`);
      if (!reply.ok) return undefined;
      const data = reply.lines.find((l) => l.data)?.data;
      if (!data || data.length === 0) break;
      total = Number(reply.lines.find((l) => l.key === 'size')?.value ?? 0);
      type ||= reply.lines.find((l) => l.key === 'type')?.value ?? '';
      chunks.push(data);
      offset += data.length;
      if (offset >= total || chunks.length > 10_000) break;
    }
    if (chunks.length === 0) return undefined;
    await mkdir(embeddedDir, { recursive: true });
    const file = join(embeddedDir, key + (extensionOf[type] ?? '.jpg'));
    const tmp = join(embeddedDir, `.tmp-${randomBytes(8).toString('hex')}`);
    try {
      await writeFile(tmp, Buffer.concat(chunks));
      await rename(tmp, file);
    } catch (e) {
      await rm(tmp, { force: true });
      throw e;
    }
    return file;
  };

  /** Where the file for the songs of `song` (a file or folder inside the music directory) is. */
  const locate = async (id: string, kind: AlbumFileKind, root: string, uri: string, song: Resolved): Promise<string | undefined> => {
    const dir = song.stats.isDirectory() ? song.path : dirname(song.path);
    const hit = await findAlbumFile(root, dir, names[kind]);
    if (hit) return hit.path;
    if (kind === 'cover' && song.stats.isFile()) return embedded(id, uri, song);
    return undefined;
  };

  const cached = async (key: string, find: () => Promise<string | undefined>): Promise<string | undefined> => {
    const c = cache.get(key);
    if (c?.kind === 'none') return undefined;
    if (c?.kind === 'file') {
      if (await stat(c.path).then(() => true, () => false)) return c.path;
      cache.delete(key);
    }
    const found = await find();
    cache.set(key, found ? { kind: 'file', path: found } : { kind: 'none' });
    return found;
  };

  const serve = async (path: string, filename: string, size?: number): Promise<CoverResult> => {
    let p = path;
    let s = await stat(p);
    if (size && config.thumbnails.enabled && contentTypeOf(p).startsWith('image/')) {
      const t = await thumbs.get({ path: p, mtimeMs: s.mtimeMs }, size);
      if (t?.kind === 'bytes') {
        const etag = etagOf(`${p}\0${s.size}\0${s.mtimeMs}\0${size}`);
        return { kind: 'bytes', data: t.data, contentType: 'image/jpeg', etag, filename: `${filename}.jpg` };
      }
      if (t) {
        p = t.path;
        s = await stat(p);
      }
    }
    const ext = extname(p);
    return { kind: 'file', path: p, size: s.size, contentType: contentTypeOf(p), etag: fileEtag(p, s.size, s.mtimeMs), filename: filename + ext };
  };

  const placeholder = async (name: string, size?: number): Promise<CoverResult> => {
    const pic = await placeholders.forName(name, size && config.thumbnails.enabled ? size : undefined);
    return { kind: 'bytes', data: pic.data, contentType: pic.contentType, etag: pic.etag, filename: `Cover - ${name}.png` };
  };

  const label = (kind: AlbumFileKind) => (kind === 'cover' ? 'Cover' : 'Booklet');

  return {
    async album(id, kind, album, size) {
      const root = gateway.musicDirectory(id);
      const found = await cached(`${root}\0album\0${album}\0${kind}`, async () => {
        const reply = await gateway.query(id, `find album ${quoteArg(album)} window 0:1`);
        const uri = reply.ok ? reply.lines.find((l) => l.key === 'file')?.value : undefined;
        if (uri === undefined) return undefined;
        const song = await resolveInside(root, uri);
        return song ? locate(id, kind, root, uri, song) : undefined;
      });
      if (found) return serve(found, `${label(kind)} - ${album}`, size);
      return kind === 'cover' ? placeholder(album, size) : { kind: 'not-found' };
    },

    async file(id, kind, uri, size) {
      const root = gateway.musicDirectory(id);
      const song = await resolveInside(root, uri);
      if (!song) return { kind: 'not-found' };
      let found: string | undefined;
      try {
        found = await cached(`${root}\0file\0${uri}\0${kind}`, () => locate(id, kind, root, uri, song));
      } catch (e) {
        // the daemon is only needed for an embedded picture: without it, the placeholder (not cached)
        if (!(e instanceof DaemonError)) throw e;
        log.warn('Could not ask the daemon for an embedded cover', { connection: id, error: e.message });
      }
      if (found) return serve(found, basename(found, extname(found)), size);
      if (kind === 'booklet') return { kind: 'not-found' };
      let album: string | undefined;
      if (song.stats.isFile()) {
        try {
          const reply = await gateway.query(id, `find file ${quoteArg(uri)}`);
          album = reply.ok ? reply.lines.find((l) => l.key.toLowerCase() === 'album')?.value : undefined;
        } catch (e) {
          if (!(e instanceof DaemonError)) throw e;
        }
      }
      return placeholder(album ?? (uri.split('/').filter(Boolean).at(song.stats.isFile() ? -2 : -1) ?? uri), size);
    },

    clearCache: () => cache.clear(),
  };
};
