/**
 * What rooms ask of a daemon, always through the gateway's `execute` with the
 * room's command class (`roomCommands`): the room service builds every
 * command itself, with each value quoted.
 */
import { AppError } from '../../common/errors.js';
import type { PlaylistSong, Song } from '../../player/answers/song.js';
import type { PlayerGateway } from '../../player/gateway.service.js';
import { isSafeArgument } from '../../player/protocol/command-line.js';
import { quoteArg } from '../../player/protocol/reply.js';

const ROOM = { admin: false, room: true } as const;

export interface DaemonStatus {
  state: 'play' | 'pause' | 'stop';
  /** position of the current song, or null */
  song: number | null;
  songid: string | null;
  nextsong: number | null;
  elapsed: number | null;
  duration: number | null;
}

export interface Snapshot {
  status: DaemonStatus;
  songs: PlaylistSong[];
}

interface Answer {
  type: string;
  result: Record<string, unknown>;
}

/** Runs one command (or command list) as a room; a failure of the daemon or a refusal becomes an `AppError`. */
export const runAsRoom = async (gateway: PlayerGateway, connection: string, command: string): Promise<Answer> => {
  const { outcome, body } = await gateway.execute(connection, command, ROOM);
  if (body.success) return body as Answer;
  if (outcome === 'unavailable' || outcome === 'timeout') {
    throw new AppError(outcome, body.type === 'Error' ? body.error.message : 'The music player is not reachable.');
  }
  const message = body.type === 'Ack' ? body.ack.message : body.error.message;
  throw new AppError(outcome === 'forbidden' ? 'forbidden' : 'bad-request', message, { field: 'file' });
};

const statusOf = (r: Record<string, unknown>): DaemonStatus => ({
  state: r['state'] === 'play' || r['state'] === 'pause' ? r['state'] : 'stop',
  song: typeof r['song'] === 'number' ? r['song'] : null,
  songid: typeof r['songid'] === 'string' ? r['songid'] : null,
  nextsong: typeof r['nextsong'] === 'number' ? r['nextsong'] : null,
  elapsed: typeof r['elapsed'] === 'number' ? r['elapsed'] : null,
  duration: typeof r['duration'] === 'number' ? r['duration'] : null,
});

/** The status and the whole queue in one command list (one consistent picture). */
export const readSnapshot = async (gateway: PlayerGateway, connection: string): Promise<Snapshot> => {
  const a = await runAsRoom(gateway, connection, 'command_list_ok_begin\nstatus\nplaylistinfo\ncommand_list_end');
  const answers = (a.result['answers'] as Answer[] | undefined) ?? [];
  return { status: statusOf(answers[0]?.result ?? {}), songs: (answers[1]?.result['songs'] as PlaylistSong[] | undefined) ?? [] };
};

/** A quoted argument; undefined when the value could end the command line. */
export const arg = (value: string): string | undefined => (isSafeArgument(value) ? quoteArg(value) : undefined);

/** The library song with exactly this file name, or undefined (a URL, a stored playlist, a folder or a missing file is none). */
export const librarySong = async (gateway: PlayerGateway, connection: string, file: string): Promise<Song | undefined> => {
  const quoted = arg(file);
  if (!quoted || file.includes('://') || file.length > 4096) return undefined;
  const a = await runAsRoom(gateway, connection, `find file ${quoted}`);
  const songs = (a.result['songs'] as Song[] | undefined) ?? [];
  return songs.find((s) => s.file === file);
};

/** Songs of the library whose tags or file name contain `q` (the daemon's `search any`). */
export const searchLibrary = async (gateway: PlayerGateway, connection: string, q: string, start: number, end: number): Promise<Song[]> => {
  const quoted = arg(q);
  if (!quoted) return [];
  const a = await runAsRoom(gateway, connection, `search any ${quoted} window ${start}:${end}`);
  return (a.result['songs'] as Song[] | undefined) ?? [];
};

/** The file names of a stored playlist. */
export const storedPlaylist = async (gateway: PlayerGateway, connection: string, name: string): Promise<string[]> => {
  const quoted = arg(name);
  if (!quoted) return [];
  const a = await runAsRoom(gateway, connection, `listplaylist ${quoted}`);
  const p = a.result['playlist'];
  const items = Array.isArray(p) ? p : (p as { items?: unknown } | undefined)?.items;
  return Array.isArray(items) ? items.filter((x): x is string => typeof x === 'string') : [];
};

export const addSong = async (gateway: PlayerGateway, connection: string, file: string): Promise<string> => {
  const a = await runAsRoom(gateway, connection, `addid ${arg(file)!}`);
  return String(a.result['id'] ?? '');
};

export const command = (gateway: PlayerGateway, connection: string, line: string): Promise<Answer> => runAsRoom(gateway, connection, line);

/** Swaps pairs of songs by id in one command list. */
export const swapSongs = async (gateway: PlayerGateway, connection: string, swaps: ReadonlyArray<readonly [string, string]>): Promise<void> => {
  if (swaps.length === 0) return;
  const lines = swaps.map(([a, b]) => `swapid ${Number(a)} ${Number(b)}`);
  await runAsRoom(gateway, connection, ['command_list_begin', ...lines, 'command_list_end'].join('\n'));
};

/** A queue song as the room shows it (without who added it). */
export const describeSong = (s: Song): { file: string; title: string; artist: string; album: string; duration: number | null } => ({
  file: s.file,
  title: s.tags['title'] ?? s.file.split('/').pop() ?? s.file,
  artist: s.tags['artist'] ?? s.tags['albumartist'] ?? '',
  album: s.tags['album'] ?? '',
  duration: s.duration ?? s.time,
});
