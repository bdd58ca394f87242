// Editing the queue: where a dragged or keyboard-moved song lands, and how a cleared
// queue comes back (its songs in order, the playing song and position).
// (Relative imports end in .js here: the unit tests type-check this file under NodeNext.)
import { command, commandList } from './mpd-command.js';
import type { PlayerStatus, QueueEntry } from '../api/player-types.js';

/** The list with the item at `from` moved to `to`, as the daemon's `move from to` does; positions renumbered. */
export function moveEntry(list: readonly QueueEntry[], from: number, to: number): QueueEntry[] {
  const out = [...list];
  const [item] = out.splice(from, 1);
  if (item === undefined) return out;
  out.splice(Math.max(0, Math.min(to, out.length)), 0, item);
  return out.map((e, pos) => (e.pos === pos ? e : { ...e, pos }));
}

/** The position Alt+ArrowUp/Down (Home/End with Alt) moves a song to, or null when the key does not move it. */
export function keyMoveTarget(key: string, pos: number, length: number): number | null {
  const to = key === 'ArrowUp' ? pos - 1 : key === 'ArrowDown' ? pos + 1 : key === 'Home' ? 0 : key === 'End' ? length - 1 : null;
  return to === null || to < 0 || to >= length || to === pos ? null : to;
}

/**
 * Where a dragged row lands: after every other row whose middle is above the pointer.
 * `middles` are the rows' vertical centres before the drag, top to bottom.
 */
export function dropTarget(middles: readonly number[], from: number, y: number): number {
  let to = 0;
  middles.forEach((m, i) => {
    if (i !== from && m < y) to++;
  });
  return to;
}

/**
 * How far to scroll per frame while a dragged row is held near the top or bottom edge of
 * the visible list (`top`..`bottom`): faster the closer to the edge, negative upwards.
 */
export function edgeScroll(y: number, top: number, bottom: number, zone = 64, fastest = 16): number {
  if (y < top + zone) return -Math.ceil(fastest * Math.min(1, (top + zone - y) / zone));
  if (y > bottom - zone) return Math.ceil(fastest * Math.min(1, (y - (bottom - zone)) / zone));
  return 0;
}

/** What a cleared queue held: its songs in order and where playback was. */
export interface QueueSnapshot {
  files: string[];
  /** the position of the current song, or null */
  pos: number | null;
  /** the daemon's `play`, `pause` or `stop` */
  state: PlayerStatus['state'];
  elapsed: number;
}

export function snapshotOf(queue: readonly QueueEntry[], status: PlayerStatus | null, elapsed: number): QueueSnapshot {
  return { files: queue.map((e) => e.song.file), pos: status?.song ?? null, state: status?.state ?? 'stop', elapsed };
}

/** Songs per command list: far below the daemon's 2 MiB list limit even with long paths. */
const LIST_SIZE = 200;

/** Commands as command lists of at most LIST_SIZE commands each. */
export function inLists(lines: readonly string[]): string[] {
  const lists: string[] = [];
  for (let i = 0; i < lines.length; i += LIST_SIZE) lists.push(commandList(lines.slice(i, i + LIST_SIZE)));
  return lists;
}

/**
 * The command lists that put a snapshot back: its songs at the top of the queue in their
 * order (ahead of anything added since), then the song that was playing (or paused)
 * at the position it had reached.
 */
export function restoreCommands(s: QueueSnapshot): string[] {
  const adds = s.files.map((file, i) => command('add', file, i));
  const playback: string[] = [];
  if (s.state !== 'stop' && s.pos !== null && s.pos < s.files.length) {
    playback.push(command('play', s.pos));
    if (s.elapsed >= 1) playback.push(command('seekcur', s.elapsed));
    if (s.state === 'pause') playback.push('pause 1');
  }
  return [...inLists(adds), ...inLists(playback)];
}
