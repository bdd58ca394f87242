// Calls of the music gateway (`/api/v1`) used by the player page. Commands go
// to `POST /api/v1/player/<id>`; the read-only conveniences use `playerspecial`.
// (Relative imports end in .js here: the unit tests type-check this file under NodeNext.)
import { command } from '../lib/mpd-command.js';
import { apiFetch } from './http.js';
import type { AlbumRef, Answer, PlayerInfo, PlayerStatus, QueueEntry, Song, StoredPlaylist } from './player-types.js';

const enc = encodeURIComponent;

/** A song path with each segment encoded and its slashes kept, as the cover routes want. */
export const encodePath = (uri: string): string => uri.split('/').map(enc).join('/');

function query(params: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.append(k, v);
  return q.toString();
}

/** The connections the server knows (`GET /api/v1/info`). */
export const fetchInfo = (): Promise<PlayerInfo> => apiFetch<PlayerInfo>('/api/v1/info');

/** Sends one daemon command and returns the answer's `result`. */
export async function run<T = Record<string, never>>(conn: string, cmd: string): Promise<T> {
  const answer = await apiFetch<Answer<T>>(`/api/v1/player/${enc(conn)}`, { method: 'POST', body: { command: cmd } });
  return answer.result;
}

async function special<T>(conn: string, route: string, params: Record<string, string | undefined> = {}): Promise<T> {
  const q = query(params);
  const answer = await apiFetch<Answer<T>>(`/api/v1/playerspecial/${enc(conn)}/${route}${q ? `?${q}` : ''}`);
  return answer.result;
}

export const fetchStatus = (conn: string): Promise<PlayerStatus> => special<PlayerStatus>(conn, 'status');

export async function fetchCurrentSong(conn: string): Promise<QueueEntry | null> {
  return (await special<{ song: QueueEntry | null }>(conn, 'currentsong')).song;
}

export async function fetchQueue(conn: string): Promise<QueueEntry[]> {
  return (await special<{ songs: QueueEntry[] }>(conn, 'playlistinfo')).songs;
}

export async function fetchPlaylists(conn: string): Promise<StoredPlaylist[]> {
  const list = (await special<{ playlist: StoredPlaylist[] }>(conn, 'listplaylists')).playlist;
  return [...list].sort((a, b) => a.playlist.localeCompare(b.playlist));
}

/**
 * The albums of a `list album group albumartist` answer: the flat list carries
 * each group value before the albums of that group. Sorted by artist, then album.
 */
export function albumsFromList(tags: Array<{ tag: string; value: string }>): AlbumRef[] {
  const albums: AlbumRef[] = [];
  let albumArtist = '';
  for (const { tag, value } of tags) {
    if (tag.toLowerCase() === 'albumartist') albumArtist = value;
    else if (tag.toLowerCase() === 'album' && value !== '') albums.push({ album: value, albumArtist });
  }
  return albums.sort((a, b) => a.albumArtist.localeCompare(b.albumArtist) || a.album.localeCompare(b.album));
}

/** Every album with its album artist. */
export async function fetchAlbums(conn: string): Promise<AlbumRef[]> {
  const { tags } = await special<{ tags: Array<{ tag: string; value: string }> }>(conn, 'list', {
    listtype: 'album',
    group: 'albumartist',
  });
  return albumsFromList(tags);
}

const num = (v: string | undefined): number => {
  const n = Number.parseInt(v ?? '', 10);
  return Number.isNaN(n) ? 0 : n;
};

/** Sorts songs by disc, track number, then path. */
export const byDiscAndTrack = (a: Song, b: Song): number =>
  num(a.tags['disc']) - num(b.tags['disc']) || num(a.tags['track']) - num(b.tags['track']) || a.file.localeCompare(b.file);

/** The songs of one album (exact match on album and, when known, album artist). */
export async function fetchAlbumSongs(conn: string, ref: AlbumRef): Promise<Song[]> {
  const params: Record<string, string> = { album: ref.album };
  if (ref.albumArtist !== '') params['albumartist'] = ref.albumArtist;
  const { songs } = await special<{ songs: Song[] }>(conn, 'find', params);
  return songs.sort(byDiscAndTrack);
}

/** Songs whose tags or path contain `text` (case-insensitive), at most `limit`. */
export async function searchSongs(conn: string, text: string, limit = 200): Promise<Song[]> {
  return (await special<{ songs: Song[] }>(conn, 'search', { any: text, range: `0:${limit}` })).songs;
}

export function coverOfSong(conn: string, uri: string, size?: number): string {
  return `/api/v1/cover/${enc(conn)}/file/${encodePath(uri)}${size ? `?size=${size}` : ''}`;
}

export function coverOfAlbum(conn: string, album: string, size?: number): string {
  return `/api/v1/cover/${enc(conn)}/album?${query({ name: album, size: size ? String(size) : undefined })}`;
}

export function bookletOfAlbum(conn: string, album: string): string {
  return `/api/v1/booklet/${enc(conn)}/album?${query({ name: album })}`;
}

/** Whether the album has a booklet (the route answers 404 when not). */
export async function hasBooklet(conn: string, album: string): Promise<boolean> {
  try {
    const res = await fetch(bookletOfAlbum(conn, album), { method: 'HEAD', credentials: 'same-origin' });
    return res.ok;
  } catch {
    return false;
  }
}

/** The thumbnail sizes the server keeps (`player.thumbnails.sizes`' default). */
const THUMBNAIL_SIZES: readonly number[] = [128, 256, 512, 1024];

/** The thumbnail for a picture shown `cssPixels` wide: the smallest kept size that fills it at `pixelRatio`. */
export function thumbnailSize(cssPixels: number, pixelRatio: number): number {
  const wanted = Math.ceil(cssPixels * (pixelRatio > 0 ? pixelRatio : 1));
  return THUMBNAIL_SIZES.find((s) => s >= wanted) ?? Math.max(...THUMBNAIL_SIZES);
}

/** The songs of a stored playlist. */
export async function fetchPlaylistSongs(conn: string, name: string): Promise<Song[]> {
  return (await run<{ songs: Song[] }>(conn, command('listplaylistinfo', name))).songs;
}
