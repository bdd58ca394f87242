// Editing the queue on the player page: moves by drag and by keyboard, the undo of a
// cleared queue, and the thumbnail size asked for a picture of a given size.
import { describe, expect, it } from 'vitest';
import { thumbnailSize } from '../../../renderer/src/api/player.js';
import type { PlayerStatus, QueueEntry } from '../../../renderer/src/api/player-types.js';
import { dropTarget, edgeScroll, keyMoveTarget, moveEntry, restoreCommands, snapshotOf } from '../../../renderer/src/lib/queue-edit.js';

const entry = (file: string, pos: number): QueueEntry => ({
  song: { file, 'Last-Modified': null, added: null, time: null, duration: null, format: null, tags: {}, allTags: {} },
  pos,
  id: String(100 + pos),
  prio: null,
});
const queue = ['a', 'b', 'c', 'd'].map(entry);
const files = (q: QueueEntry[]) => q.map((e) => e.song.file);

describe('moving a song in the queue', () => {
  it('moves like the daemon does and renumbers the positions', () => {
    expect(files(moveEntry(queue, 1, 2))).toEqual(['a', 'c', 'b', 'd']);
    expect(files(moveEntry(queue, 3, 0))).toEqual(['d', 'a', 'b', 'c']);
    expect(files(moveEntry(queue, 0, 3))).toEqual(['b', 'c', 'd', 'a']);
    expect(moveEntry(queue, 0, 3).map((e) => e.pos)).toEqual([0, 1, 2, 3]);
    expect(moveEntry(queue, 0, 3).map((e) => e.id)).toEqual(['101', '102', '103', '100']);
    expect(queue.map((e) => e.pos)).toEqual([0, 1, 2, 3]);
  });

  it('moves one step with Alt+arrows, to the ends with Alt+Home/End, and not past the ends', () => {
    expect(keyMoveTarget('ArrowUp', 2, 4)).toBe(1);
    expect(keyMoveTarget('ArrowDown', 2, 4)).toBe(3);
    expect(keyMoveTarget('Home', 2, 4)).toBe(0);
    expect(keyMoveTarget('End', 1, 4)).toBe(3);
    expect(keyMoveTarget('ArrowUp', 0, 4)).toBeNull();
    expect(keyMoveTarget('ArrowDown', 3, 4)).toBeNull();
    expect(keyMoveTarget('End', 3, 4)).toBeNull();
    expect(keyMoveTarget('Enter', 1, 4)).toBeNull();
  });

  it('drops a dragged row after every other row whose middle the pointer passed', () => {
    const middles = [10, 30, 50, 70];
    expect(dropTarget(middles, 1, 0)).toBe(0);
    expect(dropTarget(middles, 1, 29)).toBe(1);
    expect(dropTarget(middles, 1, 51)).toBe(2);
    expect(dropTarget(middles, 1, 500)).toBe(3);
    expect(dropTarget(middles, 3, 35)).toBe(2);
    expect(dropTarget(middles, 0, 5)).toBe(0);
  });

  it('scrolls while a dragged row is held near an edge, faster closer to it, and not in between', () => {
    expect(edgeScroll(400, 0, 800)).toBe(0);
    expect(edgeScroll(64, 0, 800)).toBe(0);
    expect(edgeScroll(32, 0, 800)).toBe(-8);
    expect(edgeScroll(-50, 0, 800)).toBe(-16);
    expect(edgeScroll(768, 0, 800)).toBe(8);
    expect(edgeScroll(900, 0, 800)).toBe(16);
    expect(edgeScroll(700, 0, 740)).toBe(6);
  });
});

describe('undoing "Clear queue"', () => {
  const status = (state: PlayerStatus['state'], song: number | null) => ({ state, song }) as PlayerStatus;

  it('puts the songs back on top in their order, then plays the current song from where it was', () => {
    const snap = snapshotOf(queue, status('play', 2), 42.7);
    expect(snap).toEqual({ files: ['a', 'b', 'c', 'd'], pos: 2, state: 'play', elapsed: 42.7 });
    expect(restoreCommands(snap)).toEqual([
      'command_list_begin\nadd "a" 0\nadd "b" 1\nadd "c" 2\nadd "d" 3\ncommand_list_end',
      'command_list_begin\nplay 2\nseekcur 42\ncommand_list_end',
    ]);
  });

  it('leaves a paused song paused and a stopped queue stopped', () => {
    expect(restoreCommands(snapshotOf(queue.slice(0, 1), status('pause', 0), 5)).at(-1)).toBe('command_list_begin\nplay 0\nseekcur 5\npause 1\ncommand_list_end');
    expect(restoreCommands(snapshotOf(queue.slice(0, 1), status('play', 0), 0.4)).at(-1)).toBe('play 0');
    expect(restoreCommands(snapshotOf(queue.slice(0, 1), status('stop', 0), 0))).toEqual(['add "a" 0']);
    expect(restoreCommands(snapshotOf([], null, 0))).toEqual([]);
  });

  it('sends a long queue in lists of 200 songs and quotes every name', () => {
    const many = Array.from({ length: 450 }, (_, i) => entry(`x/"${i}".flac`, i));
    const lists = restoreCommands(snapshotOf(many, status('stop', null), 0));
    expect(lists.map((l) => l.split('\n').length - 2)).toEqual([200, 200, 50]);
    expect(lists[2]!.split('\n').at(-2)).toBe('add "x/\\"449\\".flac" 449');
  });

  it('refuses a name with a line break, which would start another command inside the list', () => {
    expect(() => restoreCommands(snapshotOf([entry('a', 0), entry('x\nclear', 1)], null, 0))).toThrow(/line break/);
  });
});

describe('thumbnails of the size shown', () => {
  it('picks the smallest kept size that fills the picture at the screen pixel ratio', () => {
    expect(thumbnailSize(48, 1)).toBe(128);
    expect(thumbnailSize(160, 1)).toBe(256);
    expect(thumbnailSize(160, 2)).toBe(512);
    expect(thumbnailSize(128, 1)).toBe(128);
    expect(thumbnailSize(300, 3)).toBe(1024);
    expect(thumbnailSize(700, 2)).toBe(1024);
    expect(thumbnailSize(100, 0)).toBe(128);
  });
});
