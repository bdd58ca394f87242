import { describe, expect, it } from 'vitest';
import { countCommand, listCommand, playlistinfoCommand, searchCommand } from '../../../server/player/special.js';

describe('playerspecial commands', () => {
  it('quotes and escapes every value, canonical tag names, sort and window', () => {
    expect(searchCommand('search', { album: 'Blue "Al\\bum"', ARTIST: 'x', sort: '-track', range: '0:10' })).toEqual({
      ok: true,
      command: 'search Album "Blue \\"Al\\\\bum\\"" Artist "x" sort -Track window 0:10',
    });
    expect(searchCommand('find', { any: ['a', 'b'] })).toEqual({ ok: true, command: 'find any "a" any "b"' });
    expect(searchCommand('find', { musicbrainz_trackid: 'id' })).toEqual({ ok: true, command: 'find MUSICBRAINZ_TRACKID "id"' });
  });

  it('refuses missing filters, unknown names and bad ranges', () => {
    expect(searchCommand('search', {})).toMatchObject({ ok: false });
    expect(searchCommand('search', { albumx: 'a' })).toMatchObject({ ok: false, field: 'albumx' });
    expect(searchCommand('search', { album: 'a', range: '1-2' })).toMatchObject({ ok: false, field: 'range' });
    expect(searchCommand('search', { album: 'a', sort: 'nosuch' })).toMatchObject({ ok: false, field: 'sort' });
  });

  // Regression: a value with a line feed became part of the command line, so the
  // text after it ran as a daemon command of its own. Such values are refused.
  it('refuses a value with a line feed, CR or NUL in every builder', () => {
    for (const bad of ['x\nkill', 'x\rkill', 'x\0']) {
      expect(searchCommand('search', { any: bad })).toMatchObject({ ok: false, field: 'any' });
      expect(searchCommand('find', { album: ['ok', bad] })).toMatchObject({ ok: false, field: 'album' });
      expect(listCommand({ listtype: 'album', artist: bad })).toMatchObject({ ok: false, field: 'artist' });
      expect(countCommand({ genre: bad })).toMatchObject({ ok: false, field: 'genre' });
    }
    expect(searchCommand('search', { album: 'a', range: '0:1\nkill' })).toMatchObject({ ok: false, field: 'range' });
    expect(playlistinfoCommand({ pos: '1\nkill' })).toMatchObject({ ok: false, field: 'pos' });
  });

  it('builds list, count and playlistinfo', () => {
    expect(listCommand({ listtype: 'album', artist: 'A', group: ['date', 'genre'] })).toEqual({ ok: true, command: 'list Album Artist "A" group Date group Genre' });
    expect(listCommand({ listtype: 'file' })).toEqual({ ok: true, command: 'list file' });
    expect(listCommand({})).toMatchObject({ ok: false, field: 'listtype' });
    expect(countCommand({ genre: 'Rock', group: 'album' })).toEqual({ ok: true, command: 'count Genre "Rock" group Album' });
    expect(countCommand({ genre: 'Rock', album: 'x' })).toMatchObject({ ok: false });
    expect(playlistinfoCommand({ pos: '3', range: '0:2' })).toEqual({ ok: true, command: 'playlistinfo 3' });
    expect(playlistinfoCommand({ range: '5:' })).toEqual({ ok: true, command: 'playlistinfo 5:' });
    expect(playlistinfoCommand({})).toEqual({ ok: true, command: 'playlistinfo' });
  });
});
