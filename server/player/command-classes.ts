/**
 * Who may send which daemon command. Users may play, edit the queue, read
 * and edit the library and the stored playlists; whatever reaches beyond
 * the music (the daemon's network access, its outputs, storage, database
 * rebuilds, configuration, life and connection state, messages to other
 * clients, changes to the connection's own settings such as
 * `tagtypes clear`) is for admins. A command not in the table is for admins
 * (deny by default), and so is any argument naming a URL with a scheme
 * (`scheme://...`, which the daemon would open) outside a search filter.
 * Stickers (ratings, play counts) count as editing the library, which users
 * may do, like stored playlists, which all users share.
 * Names follow https://mpd.readthedocs.io/en/latest/protocol.html.
 */

/** Who sends a command: only an admin account may send the `admin` class. */
export interface PlayerCaller {
  admin: boolean;
  /**
   * A room acting for its guests (server/core/rooms): only `roomCommands`,
   * never a URL with a scheme; admin rights never apply.
   */
  room?: boolean;
}

export type CommandClass =
  /** status and statistics, reading only */
  | 'status'
  /** playback and its options (the player all listeners share) */
  | 'playback'
  /** the queue (current playlist) */
  | 'queue'
  /** reading the music database and song metadata; stickers */
  | 'library'
  /** stored playlists */
  | 'playlists'
  /** the connection itself: `ping`, listing the tag types (changing them is `admin`, see `connectionChanges`) */
  | 'connection'
  /** admins only */
  | 'admin';

const table: Record<CommandClass, readonly string[]> = {
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
    // the daemon's storage and database: rebuilds and network mounts
    'update', 'rescan', 'mount', 'unmount', 'listmounts', 'listneighbors',
    // audio outputs and partitions (they change what every listener hears, and where)
    'enableoutput', 'disableoutput', 'toggleoutput', 'outputset', 'moveoutput', 'partition', 'newpartition', 'delpartition',
    // the daemon itself and the connection's privileges and framing
    'config', 'kill', 'password', 'binarylimit', 'protocol', 'close',
    // messages between clients
    'subscribe', 'unsubscribe', 'channels', 'readmessages', 'sendmessage',
  ],
};

const classes = new Map<string, CommandClass>();
for (const [cls, names] of Object.entries(table) as Array<[CommandClass, readonly string[]]>) {
  for (const n of names) classes.set(n, cls);
}

/** The class of a command name (any case); a name not in the table is `admin`. */
export const classOf = (name: string): CommandClass => classes.get(name.toLowerCase()) ?? 'admin';

/** Every command with its class, for documentation and tests. */
export const commandClassTable = (): ReadonlyMap<string, CommandClass> => classes;

/**
 * Commands of a user class whose sub-commands change the connection's own
 * settings (on the HTTP path the pooled connection has to be discarded
 * afterwards): only the sub-commands listed here, and none, stay with the
 * command's class; any other first argument is `admin`.
 */
const connectionChanges: Record<string, ReadonlySet<string>> = {
  // `tagtypes` and `tagtypes available` list; `clear`, `all`, `enable`, `disable`, `reset` change
  tagtypes: new Set(['available']),
};

/**
 * Commands whose arguments are search filters or tag values, never opened by
 * the daemon: a value that looks like a URL (`file "http://..."`) is only compared.
 */
const filterOnly = new Set(['find', 'search', 'count', 'searchcount', 'list', 'findadd', 'searchadd', 'searchaddpl', 'playlistfind', 'playlistsearch']);

/**
 * MPD's tokenizer (src/util/Tokenizer.cxx), so the gateway sees the same
 * name and arguments as the daemon: the name is a letter then letters,
 * digits or `_`; an argument is a double-quoted string (a backslash escapes
 * any character) or a run of characters above space other than `"` and `'`;
 * whitespace is any character up to space. Undefined when the daemon would
 * refuse the line as unreadable.
 */
export const tokenize = (line: string): string[] | undefined => {
  const n = line.length;
  const space = (i: number) => i < n && line.charCodeAt(i) <= 0x20;
  let i = 0;
  if (!/^[A-Za-z]$/.test(line[0] ?? '')) return undefined;
  while (i < n && /[A-Za-z0-9_]/.test(line[i]!)) i++;
  if (i < n && !space(i)) return undefined;
  const tokens = [line.slice(0, i)];
  for (;;) {
    while (space(i)) i++;
    if (i >= n) return tokens;
    let value = '';
    if (line[i] === '"') {
      for (i++; ; i++) {
        if (i >= n) return undefined;
        const c = line[i]!;
        if (c === '"') break;
        if (c === '\\') {
          i++;
          if (i >= n) return undefined;
          value += line[i];
        } else value += c;
      }
      i++;
      if (i < n && !space(i)) return undefined;
    } else {
      const start = i;
      while (i < n && !space(i)) {
        if (line[i] === '"' || line[i] === "'") return undefined;
        i++;
      }
      value = line.slice(start, i);
    }
    tokens.push(value);
  }
};

/** The daemon takes anything with `://` as a URI with a scheme (a stream, a remote storage, `file://`). */
const hasScheme = (arg: string): boolean => arg.includes('://');

export type Permission = { ok: true } | { ok: false; status: 'forbidden' | 'bad-request'; message: string };

/**
 * Whether a caller may send one command line (one command of a list).
 * Admins may send anything; the daemon answers what it cannot read.
 */
export const mayRun = (line: string, admin: boolean): Permission => {
  if (admin) return { ok: true };
  const tokens = tokenize(line);
  if (!tokens) {
    return { ok: false, status: 'bad-request', message: `The command '${line.slice(0, 80)}' cannot be read: a name, then arguments (quote those with spaces or quotes in "...").` };
  }
  const name = tokens[0]!.toLowerCase();
  const cls = classOf(name);
  if (cls === 'admin') {
    const known = classes.has(name) ? '' : ' (commands the gateway does not know are too)';
    return { ok: false, status: 'forbidden', message: `The command '${name}' is for admins only${known}.` };
  }
  const reading = connectionChanges[name];
  const sub = tokens[1];
  if (reading && sub !== undefined && !reading.has(sub.toLowerCase())) {
    return { ok: false, status: 'forbidden', message: `'${name} ${sub.slice(0, 40)}' changes the connection's settings and is for admins only; '${name}' alone lists them.` };
  }
  if (!filterOnly.has(name) && tokens.slice(1).some(hasScheme)) {
    return { ok: false, status: 'forbidden', message: `Only admins may make the daemon open a URL (scheme://...), as '${name}' would; use a path in the music library.` };
  }
  return { ok: true };
};

/**
 * What a room may send for its guests: read the status, the queue and the
 * library, add a song by id, move and delete songs by id (its own, the room
 * service decides), skip after a vote, start a fallback song, read a stored
 * playlist (the fallback), covers. Nothing that changes volume, outputs,
 * stored playlists, clears the queue or loads a playlist into it.
 */
export const roomCommands: ReadonlySet<string> = new Set([
  'status', 'currentsong', 'playlistinfo', 'playlistid', 'search', 'find', 'addid', 'deleteid', 'swapid', 'next', 'playid',
  'listplaylist', 'albumart', 'readpicture', 'ping',
]);

/** Whether a room may send one command line: one of `roomCommands`, no argument with a scheme outside a search filter. */
export const mayRunAsRoom = (line: string): Permission => {
  const tokens = tokenize(line);
  const name = tokens?.[0]?.toLowerCase();
  if (!tokens || name === undefined || !roomCommands.has(name)) {
    return { ok: false, status: 'forbidden', message: `A room may not send '${(name ?? line).slice(0, 40)}'.` };
  }
  if (!filterOnly.has(name) && tokens.slice(1).some(hasScheme)) {
    return { ok: false, status: 'forbidden', message: 'A room adds songs of the music library only, never a URL.' };
  }
  return { ok: true };
};

/** `mayRun` (or `mayRunAsRoom` for a room) for every command of a list; the first refusal wins. */
export const mayRunAll = (lines: readonly string[], admin: boolean, room = false): Permission => {
  for (const line of lines) {
    const p = room ? mayRunAsRoom(line) : mayRun(line, admin);
    if (!p.ok) return p;
  }
  return { ok: true };
};
