// Pure logic of the player page and the settings page: command building (quoting of
// user text), the album list, song order and names, times, time-zone search.
import { describe, expect, it } from 'vitest';
import { addAlbumCommand, addSongCommand, command, quote } from '../../../renderer/src/lib/mpd-command.js';
import { albumsFromList, byDiscAndTrack, coverOfSong, encodePath } from '../../../renderer/src/api/player.js';
import type { Song } from '../../../renderer/src/api/player-types.js';
import { formatTime, songTitle } from '../../../renderer/src/lib/song-format.js';
import { filterTimezones } from '../../../renderer/src/lib/timezones.js';

const song = (file: string, tags: Record<string, string> = {}): Song => ({
  file,
  'Last-Modified': null,
  added: null,
  time: null,
  duration: null,
  format: null,
  tags,
  allTags: {},
});

describe('daemon commands from user text', () => {
  it('quotes every string argument and escapes quotes and backslashes', () => {
    expect(quote('Green Song "quoted"')).toBe('"Green Song \\"quoted\\""');
    expect(quote('a\\b')).toBe('"a\\\\b"');
    expect(command('save', 'my "mix"\\1')).toBe('save "my \\"mix\\"\\\\1"');
    expect(command('move', 3, 1)).toBe('move 3 1');
    expect(command('seekcur', 12.7)).toBe('seekcur 12');
  });

  it('cannot smuggle a second command through a name', () => {
    // the daemon reads one command per line: text with a line break or NUL is refused
    for (const name of ['x"\nclear', 'x\r\nclear', 'x\nclear', 'x\0clear'])
      expect(() => command('load', name), JSON.stringify(name)).toThrow(/line break or NUL/);
    expect(command('load', 'x"; clear')).toBe('load "x\\"; clear"');
  });

  it('adds albums and songs at the end or right after the current song', () => {
    expect(addAlbumCommand({ album: 'Blue Album', albumArtist: 'Artist One' }, false)).toBe('findadd "album" "Blue Album" "albumartist" "Artist One"');
    expect(addAlbumCommand({ album: 'Blue Album', albumArtist: '' }, true)).toBe('findadd "album" "Blue Album" position +0');
    expect(addSongCommand('a/b.flac', true)).toBe('add "a/b.flac" +0');
  });
});

describe('the library', () => {
  it('reads albums under the album artist that precedes them', () => {
    const albums = albumsFromList([
      { tag: 'albumartist', value: 'Zed' },
      { tag: 'album', value: 'Last' },
      { tag: 'AlbumArtist', value: 'Artist One' },
      { tag: 'album', value: 'Purple Album' },
      { tag: 'album', value: 'Blue Album' },
      { tag: 'album', value: '' },
    ]);
    expect(albums).toEqual([
      { album: 'Blue Album', albumArtist: 'Artist One' },
      { album: 'Purple Album', albumArtist: 'Artist One' },
      { album: 'Last', albumArtist: 'Zed' },
    ]);
  });

  it('orders songs by disc and track number', () => {
    const songs = [song('c', { disc: '2', track: '1' }), song('b', { disc: '1', track: '10/12' }), song('a', { disc: '1', track: '2' })];
    expect(songs.sort(byDiscAndTrack).map((s) => s.file)).toEqual(['a', 'b', 'c']);
  });

  it('names songs without a title after their file and encodes cover paths segment by segment', () => {
    expect(songTitle(song('Various/Green Album/01 green.ogg'))).toBe('01 green');
    expect(songTitle(song('x.flac', { title: 'Real' }))).toBe('Real');
    expect(encodePath('Artist Two/Red Album (2CD)/CD1/01 #1?.mp3')).toBe('Artist%20Two/Red%20Album%20(2CD)/CD1/01%20%231%3F.mp3');
    expect(coverOfSong('default', 'a b/c.flac', 300)).toBe('/api/v1/cover/default/file/a%20b/c.flac?size=300');
  });
});

describe('times and time zones', () => {
  it('formats seconds as m:ss or h:mm:ss', () => {
    expect(formatTime(0)).toBe('0:00');
    expect(formatTime(65.9)).toBe('1:05');
    expect(formatTime(3725)).toBe('1:02:05');
    expect(formatTime(null)).toBe('–:––');
  });

  it('finds zones by every word, ignoring case, slashes and underscores', () => {
    const zones = ['UTC', 'America/New_York', 'America/Los_Angeles', 'Asia/Tokyo'];
    expect(filterTimezones(zones, 'new york')).toEqual(['America/New_York']);
    expect(filterTimezones(zones, 'AMERICA')).toEqual(['America/New_York', 'America/Los_Angeles']);
    expect(filterTimezones(zones, '  ')).toEqual(zones);
  });
});
