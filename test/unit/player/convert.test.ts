import { describe, expect, it } from 'vitest';
import { convertReply, idleChanges, UnreadableAnswerError } from '../../../server/player/answers/convert.js';
import { checkCommand, type CommandInfo } from '../../../server/player/commands.js';
import { framingOf } from '../../../server/player/protocol/command-line.js';
import { ReplyReader, type Reply } from '../../../server/player/protocol/reply.js';

const reply = (command: string, text: string | Buffer): Reply => {
  const out: Reply[] = [];
  const reader = new ReplyReader((r) => out.push(r));
  reader.expect(framingOf(command));
  reader.push(Buffer.isBuffer(text) ? text : Buffer.from(text));
  if (out.length !== 1) throw new Error(`expected one reply, got ${out.length}`);
  return out[0]!;
};
const cmd = (text: string): CommandInfo => {
  const c = checkCommand(text);
  if (!c.ok) throw new Error(c.message);
  return c.command;
};
const convert = (command: string, text: string | Buffer) => convertReply(cmd(command), reply(command, text));

// recorded from mpd 0.23.12 with the test library, playing the third queue entry
const statusText = `volume: 100
repeat: 0
random: 1
single: oneshot
consume: 0
partition: default
playlist: 4
playlistlength: 3
mixrampdb: 0
state: play
song: 2
songid: 3
time: 0:2
elapsed: 0.000
bitrate: 0
duration: 2.000
audio: 44100:f:2
nextsong: 0
nextsongid: 1
OK
`;
const greenSong = `file: Various/Green Album/01 green.ogg
Last-Modified: 2026-11-21T12:50:12Z
Format: 44100:f:2
Title: Green Song "quoted"
Artist: Artist Three
Artist: Artist Four
Album: Green Album
Track: 1
Genre: Rock
Time: 2
duration: 2.000
`;

describe('the answer converter', () => {
  it('converts status into a StatusAnswer with numbers, booleans and string ids', () => {
    expect(convert('status', statusText)).toEqual({
      success: true,
      type: 'StatusAnswer',
      result: {
        volume: 100,
        repeat: false,
        random: true,
        single: 'oneshot',
        consume: false,
        partition: 'default',
        playlist: 4,
        playlistlength: 3,
        state: 'play',
        song: 2,
        songid: '3',
        nextsong: 0,
        nextsongid: '1',
        time: { start: 0, end: 2 },
        elapsed: 0,
        duration: 2,
        bitrate: 0,
        xfade: null,
        mixrampdb: 0,
        mixrampdelay: null,
        audio: { asString: '44100:f:2', freq: 44100, bits: null, channels: 2 },
        updating_db: null,
        error: null,
        lastloadedplaylist: null,
      },
    });
  });

  it('gives volume null for a status without volume (no mixer) or with -1', () => {
    const noVolume = convert('status', statusText.replace('volume: 100\n', ''));
    expect((noVolume as { result: { volume: unknown } }).result.volume).toBeNull();
    const minus = convert('status', statusText.replace('volume: 100', 'volume: -1'));
    expect((minus as { result: { volume: unknown } }).result.volume).toBeNull();
  });

  // Regression: garbage in place of a status read as a stopped player with an empty queue (200).
  it('refuses to read a status without a state or the queue counters, or with numbers that are not numbers', () => {
    for (const [text, why] of [
      ['hello\nworld: 1\nOK\n', /no state/],
      [statusText.replace(/^state: .*\n/m, ''), /no state/],
      [statusText.replace(/^state: .*$/m, 'state: dancing'), /state "dancing"/],
      [statusText.replace(/^playlistlength: .*\n/m, ''), /no playlistlength/],
      [statusText.replace('volume: 100', 'volume: loud'), /volume "loud"/],
      [statusText.replace(/^elapsed: .*$/m, 'elapsed: soon'), /elapsed "soon"/],
    ] as const) {
      expect(() => convert('status', text), text.slice(0, 40)).toThrow(UnreadableAnswerError);
      expect(() => convert('status', text)).toThrow(why);
    }
    // a status decoded from a plain command list, and one inside an ok list, too
    expect(() => convert('command_list_begin\nping\nstatus\ncommand_list_end', 'hello\nOK\n')).toThrow(UnreadableAnswerError);
    expect(() => convert('command_list_ok_begin\nstatus\ncommand_list_end', 'hello\nlist_OK\nOK\n')).toThrow(UnreadableAnswerError);
    // what older daemons say is still read: no partition, mixrampdelay nan
    expect(convert('status', statusText.replace('partition: default\n', '').replace(/^mixrampdb: .*$/m, 'mixrampdb: 0.000000\nmixrampdelay: nan'))).toMatchObject({ type: 'StatusAnswer' });
  });

  it('keeps every value of a multi-value tag in allTags and the first in tags', () => {
    const a = convert('find album "Green Album"', `${greenSong}OK\n`);
    expect(a).toEqual({
      success: true,
      type: 'SongListAnswer',
      result: {
        songs: [
          {
            file: 'Various/Green Album/01 green.ogg',
            'Last-Modified': '2026-11-21T12:50:12Z',
            added: null,
            time: 2,
            duration: 2,
            format: '44100:f:2',
            tags: { title: 'Green Song "quoted"', artist: 'Artist Three', album: 'Green Album', track: '1', genre: 'Rock' },
            allTags: { title: ['Green Song "quoted"'], artist: ['Artist Three', 'Artist Four'], album: ['Green Album'], track: ['1'], genre: ['Rock'] },
          },
        ],
      },
    });
  });

  it('splits song lists at file:, and queue entries carry pos (number) and id (string)', () => {
    const two = convert('playlistinfo', `${greenSong}Pos: 2\nId: 3\nfile: b.flac\nTitle: B: the sequel\nPos: 3\nId: 4\nPrio: 5\nOK\n`);
    const songs = (two as { result: { songs: Array<{ pos: number; id: string; prio: number | null; song: { file: string; tags: Record<string, string> } }> } }).result.songs;
    expect(two.type).toBe('PlaylistAnswer');
    expect(songs.map((s) => [s.pos, s.id, s.prio, s.song.file])).toEqual([
      [2, '3', null, 'Various/Green Album/01 green.ogg'],
      [3, '4', 5, 'b.flac'],
    ]);
    expect(songs[1]!.song.tags['title']).toBe('B: the sequel');
  });

  it('answers currentsong with the song or null', () => {
    expect(convert('currentsong', 'OK\n')).toEqual({ success: true, type: 'CurrentSongAnswer', result: { song: null } });
    const cur = convert('currentsong', `${greenSong}Pos: 2\nId: 3\nOK\n`);
    expect(cur).toMatchObject({ type: 'CurrentSongAnswer', result: { song: { pos: 2, id: '3', song: { file: 'Various/Green Album/01 green.ogg' } } } });
  });

  it('converts list (flat, group lines inline, empty values kept) and count (per group)', () => {
    expect(convert('list album group date', 'Date: \nAlbum: Green Album\nDate: 2001\nAlbum: Blue Album\nOK\n')).toEqual({
      success: true,
      type: 'ListAnswer',
      result: { tags: [{ tag: 'date', value: '' }, { tag: 'album', value: 'Green Album' }, { tag: 'date', value: '2001' }, { tag: 'album', value: 'Blue Album' }] },
    });
    expect(convert('count genre Rock', 'songs: 1\nplaytime: 2\nOK\n')).toEqual({
      success: true,
      type: 'SongCountAnswer',
      result: { songCounts: [{ songs: 1, playtime: 2, group: null }] },
    });
    expect(convert('count group album', 'Album: A\nsongs: 1\nplaytime: 2\nAlbum: \nsongs: 3\nplaytime: 4\nOK\n')).toMatchObject({
      result: { songCounts: [{ songs: 1, playtime: 2, group: { tag: 'album', value: 'A' } }, { songs: 3, playtime: 4, group: { tag: 'album', value: '' } }] },
    });
  });

  it('converts stats, outputs, addid, update, listplaylists, lsinfo and stickers', () => {
    expect(convert('stats', 'uptime: 5\nplaytime: 0\nartists: 6\nalbums: 7\nsongs: 9\ndb_playtime: 18\ndb_update: 1700000000\nOK\n')).toEqual({
      success: true,
      type: 'StatsAnswer',
      result: { artists: 6, albums: 7, songs: 9, uptime: 5, db_playtime: 18, db_update: 1700000000, playtime: 0 },
    });
    expect(convert('outputs', 'outputid: 0\noutputname: null-out\nplugin: null\noutputenabled: 1\nattribute: dop=0\nOK\n')).toMatchObject({
      type: 'OutputsAnswer',
      result: { outputs: [{ id: '0', name: 'null-out', enabled: true, plugin: 'null', attributes: { dop: '0' } }] },
    });
    expect(convert('addid "a.flac"', 'Id: 12\nOK\n')).toEqual({ success: true, type: 'AddIdAnswer', result: { id: '12' } });
    expect(convert('update', 'updating_db: 3\nOK\n')).toEqual({ success: true, type: 'JobIdAnswer', result: { jobId: '3' } });
    expect(convert('listplaylists', 'playlist: a\nLast-Modified: 2026-01-01T00:00:00Z\nplaylist: b\nLast-Modified: 2026-01-02T00:00:00Z\nOK\n')).toMatchObject({
      type: 'PlaylistSummaryAnswer',
      result: { playlist: [{ playlist: 'a', 'Last-Modified': '2026-01-01T00:00:00Z' }, { playlist: 'b' }] },
    });
    const ls = convert('lsinfo', 'directory: Artist Two/Red Album (2CD)/CD1\nLast-Modified: x\nfile: a.flac\nTitle: A\nplaylist: p\nOK\n');
    expect((ls as { result: { infos: unknown[] } }).result.infos).toMatchObject([
      { DirInfo: { dir: { directory: 'Artist Two/Red Album (2CD)/CD1', 'Last-Modified': 'x' } } },
      { SongInfo: { song: { file: 'a.flac', tags: { title: 'A' } } } },
      { PlaylistInfo: { playlist: { playlist: 'p', 'Last-Modified': null } } },
    ]);
    expect(convert('sticker get song "a" rating', 'sticker: rating=5\nOK\n')).toEqual({ success: true, type: 'StickerAnswer', result: { sticker: { name: 'rating', value: '5' } } });
    expect(convert('replay_gain_status', 'replay_gain_mode: off\nOK\n')).toEqual({ success: true, type: 'ReplayGainStatusAnswer', result: { replayGainMode: 'off' } });
  });

  it('answers Empty for commands that say only OK, and GenericAnswer when one unexpectedly says more', () => {
    expect(convert('play', 'OK\n')).toEqual({ success: true, type: 'Empty', result: {} });
    expect(convert('play', 'surprise: yes\nOK\n')).toEqual({ success: true, type: 'GenericAnswer', result: { entries: [{ surprise: 'yes' }] } });
  });

  it('answers any other command with a GenericAnswer that keeps every line', () => {
    const g = convert('listall', 'directory: A\nfile: A/1.flac\nfile: A/2.flac\nOK\n');
    expect(g).toEqual({ success: true, type: 'GenericAnswer', result: { entries: [{ directory: 'A' }, { file: 'A/1.flac' }, { file: 'A/2.flac' }] } });
    const songs = convert('listallinfo', 'file: a.ogg\nArtist: X\nArtist: Y\nTitle: t\nOK\n');
    expect(songs).toEqual({ success: true, type: 'GenericAnswer', result: { entries: [{ file: 'a.ogg', Artist: ['X', 'Y'], Title: 't' }] } });
    const repeated = convert('getfingerprint "x"', 'key: 1\nkey: 2\nother: \nOK\n');
    expect(repeated).toEqual({ success: true, type: 'GenericAnswer', result: { entries: [{ key: '1' }, { key: '2', other: '' }] } });
    expect(convert('mixrampdb', 'OK\n')).toEqual({ success: true, type: 'Empty', result: {} });
    expect(convert('listmounts', 'mount: \nstorage: /music\nOK\n')).toEqual({ success: true, type: 'GenericAnswer', result: { entries: [{ mount: '', storage: '/music' }] } });
  });

  // Regression: readcomments kept only the first of repeated keys, and keys named like
  // built-in object properties were taken as already present and dropped.
  it('keeps every readcomments key and value, repeats as arrays', () => {
    const r = convert('readcomments "a.flac"', 'constructor: a\ntoString: b\n__proto__: c\nMOOD: x\nMOOD: y\nMOOD: z\nOK\n');
    expect(JSON.parse(JSON.stringify(r))).toEqual({
      success: true,
      type: 'ReadCommentsAnswer',
      result: { values: { constructor: 'a', toString: 'b', ['__proto__']: 'c', MOOD: ['x', 'y', 'z'] } },
    });
  });

  it('answers binary commands with the bytes as base64', () => {
    const payload = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0a, 0x00]);
    const text = Buffer.concat([Buffer.from(`size: 4525\ntype: image/png\nbinary: ${payload.length}\n`), payload, Buffer.from('\nOK\n')]);
    expect(convert('readpicture "a.flac" 0', text)).toEqual({
      success: true,
      type: 'BinaryAnswer',
      result: { size: 4525, mimeType: 'image/png', binary: 6, data: payload.toString('base64') },
    });
    expect(convert('readpicture "b.flac" 0', 'OK\n')).toMatchObject({ result: { size: null, binary: 0, data: '' } });
    // only albumart and readpicture send bytes: elsewhere `binary` is an ordinary key (a comment named so)
    expect(convert('readcomments "a.flac"', 'binary: 6\nTITLE: x\nOK\n')).toEqual({
      success: true,
      type: 'ReadCommentsAnswer',
      result: { values: { binary: '6', TITLE: 'x' } },
    });
  });

  it('converts ACKs into the Ack envelope', () => {
    expect(convert('playlistinfo 99', 'ACK [2@0] {playlistinfo} Bad song index\n')).toEqual({
      success: false,
      type: 'Ack',
      ack: { code: { value: 2, name: 'invalid_argument' }, position: 0, command: 'playlistinfo', message: 'Bad song index' },
    });
  });

  it('answers command lists: one answer per command with command_list_ok_begin, the last one for plain lists', () => {
    const ok = convert('command_list_ok_begin\nstatus\ncurrentsong\nplay\ncommand_list_end', `${statusText.replace('OK\n', '')}list_OK\nlist_OK\nlist_OK\nOK\n`);
    expect(ok.type).toBe('CommandListAnswer');
    const answers = (ok as { result: { answers: Array<{ type: string; result: unknown }> } }).result.answers;
    expect(answers.map((a) => a.type)).toEqual(['StatusAnswer', 'CurrentSongAnswer', 'Empty']);
    expect(answers[1]!.result).toEqual({ song: null });
    expect(convert('command_list_begin\nclear\nadd "x"\nstatus\ncommand_list_end', statusText).type).toBe('StatusAnswer');
    expect(convert('command_list_begin\nstatus\nstats\ncommand_list_end', 'volume: 1\nsongs: 2\nOK\n').type).toBe('GenericAnswer');
  });

  it('reads the changed subsystems of an idle reply, unknown ones included', () => {
    expect(idleChanges(reply('idle', 'changed: player\nchanged: mixer\nchanged: neighbor\nOK\n'))).toEqual(['player', 'mixer', 'neighbor']);
    expect(idleChanges(reply('idle', 'OK\n'))).toEqual([]);
  });
});

describe('checking commands before they go to the daemon', () => {
  it.each([
    ['', 'Command required'],
    ['   ', 'Command required'],
    ['status\nstats', 'line break'],
    ['status\r\n', 'line break'],
    ['sta\0tus', 'NUL'],
    ['idle', 'idle'],
    ['idle player mixer', 'idle'],
    ['NoIdle', 'lower-case'],
    ['command_list_begin', 'command list'],
    ['command_list_end', 'command list'],
    ['command_list_begin\nstatus', 'line break'],
    ['command_list_begin\ncommand_list_end', 'empty'],
    ['command_list_begin\nidle\ncommand_list_end', 'idle'],
    ['command_list_begin\nstatus\n\ncommand_list_end', 'empty lines'],
    ['command_list_begin\ncommand_list_ok_begin\ncommand_list_end', 'nested'],
  ])('refuses %j', (text, message) => {
    const c = checkCommand(text);
    expect(c.ok).toBe(false);
    if (!c.ok) expect(c.message.toLowerCase()).toContain(message.toLowerCase());
  });

  it('accepts single commands and whole command lists, and marks state-changing ones as not reusable', () => {
    expect(checkCommand('status')).toMatchObject({ ok: true, command: { text: 'status', names: ['status'], list: 'none', reusable: true } });
    expect(checkCommand('status\n')).toMatchObject({ ok: true, command: { text: 'status' } });
    expect(checkCommand('sticker get song "a" r')).toMatchObject({ ok: true, command: { names: ['sticker'], subs: ['get'] } });
    expect(checkCommand('password "x"')).toMatchObject({ ok: true, command: { reusable: false } });
    expect(checkCommand('tagtypes')).toMatchObject({ ok: true, command: { reusable: true } });
    expect(checkCommand('tagtypes clear')).toMatchObject({ ok: true, command: { reusable: false } });
    expect(checkCommand('command_list_ok_begin\nstatus\nplay 1\ncommand_list_end\n')).toMatchObject({
      ok: true,
      command: { names: ['status', 'play'], list: 'ok', reusable: true },
    });
  });
});
