// Regression: any caller of the player could send any daemon command (`kill`,
// `add http://...`, outputs, `update`, mounts). The class table decides who may
// send what; this pins it command by command, and pins the tokenizer that finds
// URL arguments the way the daemon reads them.
import { describe, expect, it } from 'vitest';
import { classOf, commandClassTable, mayRun, mayRunAll, tokenize, type CommandClass } from '../../../server/player/command-classes.js';

/** Every command of the protocol (https://mpd.readthedocs.io/en/latest/protocol.html) and its class. */
const expected: Record<CommandClass, string[]> = {
  status: ['clearerror', 'currentsong', 'idle', 'noidle', 'status', 'stats', 'outputs', 'commands', 'notcommands', 'urlhandlers', 'decoders', 'listpartitions'],
  playback: [
    'consume', 'crossfade', 'mixrampdb', 'mixrampdelay', 'random', 'repeat', 'setvol', 'volume', 'getvol', 'single',
    'replay_gain_mode', 'replay_gain_status', 'next', 'pause', 'play', 'playid', 'previous', 'seek', 'seekid', 'seekcur', 'stop',
  ],
  queue: [
    'add', 'addid', 'clear', 'delete', 'deleteid', 'move', 'moveid', 'playlist', 'playlistfind', 'playlistid', 'playlistinfo',
    'playlistsearch', 'plchanges', 'plchangesposid', 'prio', 'prioid', 'rangeid', 'shuffle', 'swap', 'swapid', 'addtagid',
    'cleartagid', 'findadd', 'searchadd',
  ],
  library: [
    'albumart', 'count', 'getfingerprint', 'find', 'list', 'listall', 'listallinfo', 'listfiles', 'lsinfo', 'readcomments',
    'readpicture', 'search', 'searchcount', 'sticker', 'stickernames', 'stickertypes', 'stickernamestypes',
  ],
  playlists: [
    'listplaylist', 'listplaylistinfo', 'listplaylists', 'load', 'playlistadd', 'playlistclear', 'playlistdelete',
    'playlistmove', 'rename', 'rm', 'save', 'searchaddpl', 'searchplaylist', 'playlistlength',
  ],
  connection: ['ping', 'tagtypes'],
  admin: [
    'update', 'rescan', 'mount', 'unmount', 'listmounts', 'listneighbors', 'enableoutput', 'disableoutput', 'toggleoutput',
    'outputset', 'moveoutput', 'partition', 'newpartition', 'delpartition', 'config', 'kill', 'password', 'binarylimit',
    'protocol', 'close', 'subscribe', 'unsubscribe', 'channels', 'readmessages', 'sendmessage',
  ],
};

describe('the command class table', () => {
  it('gives every protocol command its class, and nothing else is in the table', () => {
    const all = new Map<string, CommandClass>();
    for (const [cls, names] of Object.entries(expected) as Array<[CommandClass, string[]]>) {
      for (const n of names) {
        expect(classOf(n), n).toBe(cls);
        all.set(n, cls);
      }
    }
    expect(new Map(commandClassTable())).toEqual(all);
  });

  it('treats unknown commands as admin-only (deny by default), whatever the case', () => {
    for (const n of ['frobnicate', 'albumartx', 'stickerx', '']) expect(classOf(n), n).toBe('admin');
    expect(classOf('STATUS')).toBe('status');
    expect(classOf('Kill')).toBe('admin');
  });
});

describe('tokenize (as the daemon reads a line)', () => {
  it('splits a name and quoted or unquoted arguments, with backslash escapes', () => {
    expect(tokenize('status')).toEqual(['status']);
    expect(tokenize('find album "Blue \\"Al\\\\bum\\"" window 0:1')).toEqual(['find', 'album', 'Blue "Al\\bum"', 'window', '0:1']);
    expect(tokenize('add "h\\ttp://x"')).toEqual(['add', 'http://x']);
    expect(tokenize('add\thttp://x  ')).toEqual(['add', 'http://x']);
    expect(tokenize('replay_gain_mode auto')).toEqual(['replay_gain_mode', 'auto']);
    expect(tokenize('add ""')).toEqual(['add', '']);
  });

  it('refuses what the daemon cannot read', () => {
    for (const bad of ['', ' status', '1status', 'sta-tus', 'add "x', 'add "x"y', "add 'x'", 'add x"y', 'add "x\\']) {
      expect(tokenize(bad), JSON.stringify(bad)).toBeUndefined();
    }
  });
});

describe('mayRun', () => {
  const user = (line: string) => mayRun(line, false);

  it('lets users play, edit the queue, read the library and keep playlists', () => {
    for (const line of ['status', 'play 1', 'setvol 50', 'add "Artist One/Blue Album"', 'load mine', 'save "x"', 'rm "x"', 'lsinfo', 'sticker get song "a.flac" rating', 'tagtypes']) {
      expect(user(line), line).toEqual({ ok: true });
    }
  });

  it('refuses admin commands and any URL argument with a scheme to users, with a message naming admins', () => {
    for (const line of [
      'kill',
      'update',
      'enableoutput 0',
      'config',
      'frobnicate',
      'add http://x/y',
      'add "HTTPS://x/y"',
      'add "h\\ttp://x"',
      'addid "nfs://h/s" 0',
      'load "http://x/l.m3u"',
      'playlistadd mine "http://x/y"',
      'listplaylistinfo "http://x/l.m3u"',
      'albumart "smb://h/s/a.flac" 0',
      'readpicture "file:///etc/passwd" 0',
      'lsinfo "udisks://x"',
      'sticker get song "http://x" rating',
    ]) {
      const p = user(line);
      expect(p, line).toMatchObject({ ok: false, status: 'forbidden', message: expect.stringMatching(/admin/) });
    }
  });

  // Regression: `tagtypes clear` / `disable` / `enable` / `all` / `reset` were open
  // to users although they change the daemon connection's own settings (on the HTTP
  // path a pooled connection then has to be thrown away). Only listing the tag types
  // (`tagtypes`, `tagtypes available`) is for users; changing them is for admins.
  it('lets users list tag types but not change them', () => {
    for (const line of ['tagtypes', 'TAGTYPES', 'tagtypes available']) expect(user(line), line).toEqual({ ok: true });
    for (const line of ['tagtypes clear', 'tagtypes disable Artist', 'tagtypes enable Artist', 'tagtypes all', 'tagtypes reset Artist', 'tagtypes "clear"', 'tagtypes frobnicate']) {
      expect(user(line), line).toMatchObject({ ok: false, status: 'forbidden', message: expect.stringMatching(/admin/) });
    }
    expect(mayRunAll(['status', 'tagtypes clear'], false)).toMatchObject({ ok: false, status: 'forbidden' });
    expect(mayRun('tagtypes clear', true)).toEqual({ ok: true });
  });

  it('allows a URL inside a search filter (it is only compared, never opened)', () => {
    expect(user('find file "http://radio/stream"')).toEqual({ ok: true });
    expect(user('search "(file contains \'http://\')"')).toEqual({ ok: true });
    expect(user('playlistfind file "http://radio/stream"')).toEqual({ ok: true });
  });

  it('answers bad-request to a user for a line the daemon cannot read; admins may send anything', () => {
    expect(user('add "unterminated')).toMatchObject({ ok: false, status: 'bad-request' });
    expect(mayRun('kill', true)).toEqual({ ok: true });
    expect(mayRun('add http://x', true)).toEqual({ ok: true });
    expect(mayRun('add "unterminated', true)).toEqual({ ok: true });
  });

  it('checks every command of a list', () => {
    expect(mayRunAll(['clear', 'add "a"', 'play'], false)).toEqual({ ok: true });
    expect(mayRunAll(['clear', 'kill', 'play'], false)).toMatchObject({ ok: false, status: 'forbidden', message: expect.stringContaining("'kill'") });
    expect(mayRunAll(['clear', 'add http://x'], false)).toMatchObject({ ok: false, status: 'forbidden' });
    expect(mayRunAll(['clear', 'kill'], true)).toEqual({ ok: true });
  });
});
