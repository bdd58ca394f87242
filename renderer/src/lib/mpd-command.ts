// Building daemon commands from user text: every argument quoted and escaped,
// so a title with a quote or a backslash cannot change the command.
// (Relative imports end in .js here: the unit tests type-check this file under NodeNext.)
import type { AlbumRef } from '../api/player-types.js';

/**
 * `"value"` with `\` and `"` escaped, as the daemon's protocol wants. The daemon reads
 * one command per line and has no escape for a line break, so text with a line break
 * or NUL is refused (it would start a second command).
 */
export function quote(value: string): string {
  if (/[\r\n\0]/.test(value)) throw new RangeError('A line break or NUL cannot be sent to the music player');
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** A command line from a name and arguments (numbers as they are, strings quoted). */
export function command(name: string, ...args: Array<string | number>): string {
  return [name, ...args.map((a) => (typeof a === 'number' ? String(Math.trunc(a)) : quote(a)))].join(' ');
}

/** One command list of `lines`, each built by `command()` (a single line is sent as it is). */
export function commandList(lines: string[]): string {
  return lines.length === 1 ? lines[0]! : ['command_list_begin', ...lines, 'command_list_end'].join('\n');
}

/** The filter of an album for `findadd` and friends. */
function albumFilter(ref: AlbumRef): Array<string> {
  const args = ['album', ref.album];
  if (ref.albumArtist !== '') args.push('albumartist', ref.albumArtist);
  return args;
}

/** `findadd` of an album; `afterCurrent` inserts it right after the playing song. */
export const addAlbumCommand = (ref: AlbumRef, afterCurrent: boolean): string =>
  afterCurrent ? `${command('findadd', ...albumFilter(ref))} position +0` : command('findadd', ...albumFilter(ref));

/** `add` of a song; `afterCurrent` inserts it right after the playing song. */
export const addSongCommand = (uri: string, afterCurrent: boolean): string =>
  afterCurrent ? `${command('add', uri)} +0` : command('add', uri);
