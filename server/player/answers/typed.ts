/**
 * The typed answers of known commands (the shapes of the reference gateway,
 * without its bugs): numbers as numbers, ids as strings, absent optional
 * values as `null`.
 */
import type { ReplyLine } from '../protocol/reply.js';
import { splitRecords, toFloat, toInt, toPlaylistSong, toPlaylistSongs, toSong, toSongs, withRaw } from './song.js';

export interface Typed {
  type: string;
  result: unknown;
}

/** A reply of the daemon that does not say what its command's answer must (a status without a state). */
export class UnreadableAnswerError extends Error {
  constructor(command: string, why: string) {
    super(`The music player daemon sent an unreadable answer to ${command}: ${why}.`);
    this.name = 'UnreadableAnswerError';
  }
}

/** First value of a key (case-insensitive), or undefined. */
const get = (lines: ReplyLine[], key: string): string | undefined => {
  for (const l of lines) if (l.key.toLowerCase() === key) return l.value;
  return undefined;
};

/**
 * Every key with every value, in order: one value as a string, repeated keys
 * as an array. A null-prototype object, so keys such as `constructor` or
 * `__proto__` are plain keys.
 */
const keyValues = (lines: ReplyLine[]): Record<string, string | string[]> => {
  const out = Object.create(null) as Record<string, string | string[]>;
  for (const { key, value } of lines) {
    const prev = out[key];
    out[key] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return out;
};

const values = (lines: ReplyLine[], key: string): string[] => lines.filter((l) => l.key.toLowerCase() === key).map((l) => l.value);

const bool = (v: string | undefined): boolean => v !== undefined && v !== '0' && v !== '';

const nameValue = (v: string): { name: string; value: string } => {
  const i = v.indexOf('=');
  return i < 0 ? { name: v, value: '' } : { name: v.slice(0, i), value: v.slice(i + 1) };
};

const audio = (v: string | undefined) => {
  if (!v) return null;
  const [freq, bits, channels] = v.split(':');
  return { asString: v, freq: toInt(freq), bits: toInt(bits), channels: toInt(channels) };
};

const states = new Set(['play', 'pause', 'stop']);
const integerKeys = ['playlist', 'playlistlength', 'volume', 'song', 'nextsong', 'bitrate', 'xfade'];
const isInteger = (v: string): boolean => /^-?\d+$/.test(v);

/**
 * Why a status cannot be read, or undefined: every daemon says its state and
 * the queue's version and length, and its numbers are numbers. Without this,
 * garbage would read as a stopped player with an empty queue.
 */
const unreadableStatus = (m: Map<string, string>): string | undefined => {
  const state = m.get('state');
  if (state === undefined || !states.has(state)) return state === undefined ? 'no state' : `the state ${JSON.stringify(state.slice(0, 40))}`;
  for (const k of ['playlist', 'playlistlength']) if (!m.has(k)) return `no ${k}`;
  for (const k of integerKeys) {
    const v = m.get(k);
    if (v !== undefined && !isInteger(v)) return `${k} ${JSON.stringify(v.slice(0, 40))} is not a whole number`;
  }
  for (const k of ['elapsed', 'duration']) {
    const v = m.get(k);
    if (v !== undefined && toFloat(v) === null) return `${k} ${JSON.stringify(v.slice(0, 40))} is not a number`;
  }
  return undefined;
};

const status = (l: ReplyLine[]): Typed => {
  const m = new Map<string, string>();
  for (const { key, value } of l) if (!m.has(key.toLowerCase())) m.set(key.toLowerCase(), value);
  const unreadable = unreadableStatus(m);
  if (unreadable) throw new UnreadableAnswerError('status', unreadable);
  const time = m.get('time')?.split(':');
  const volume = toInt(m.get('volume'));
  return {
    type: 'StatusAnswer',
    result: {
      // MPD without a mixer omits `volume` (older versions say -1)
      volume: volume === null || volume < 0 ? null : volume,
      repeat: bool(m.get('repeat')),
      random: bool(m.get('random')),
      single: m.get('single') ?? '0',
      consume: bool(m.get('consume')),
      partition: m.get('partition') ?? null,
      playlist: toInt(m.get('playlist')) ?? 0,
      playlistlength: toInt(m.get('playlistlength')) ?? 0,
      state: m.get('state'),
      song: toInt(m.get('song')),
      songid: m.get('songid') ?? null,
      nextsong: toInt(m.get('nextsong')),
      nextsongid: m.get('nextsongid') ?? null,
      time: time && time.length === 2 ? { start: toInt(time[0]) ?? 0, end: toInt(time[1]) ?? 0 } : null,
      elapsed: toFloat(m.get('elapsed')),
      duration: toFloat(m.get('duration')),
      bitrate: toInt(m.get('bitrate')),
      xfade: toInt(m.get('xfade')),
      mixrampdb: toFloat(m.get('mixrampdb')),
      mixrampdelay: toFloat(m.get('mixrampdelay')),
      audio: audio(m.get('audio')),
      updating_db: m.get('updating_db') ?? null,
      error: m.get('error') ?? null,
      lastloadedplaylist: m.get('lastloadedplaylist') ?? null,
    },
  };
};

const statsKeys = ['artists', 'albums', 'songs', 'uptime', 'db_playtime', 'db_update', 'playtime'] as const;

const counts = (lines: ReplyLine[]) => {
  const out: Array<{ songs: number; playtime: number; group: { tag: string; value: string } | null }> = [];
  let cur: (typeof out)[number] | undefined;
  for (const { key, value } of lines) {
    const k = key.toLowerCase();
    if (k === 'songs' || k === 'playtime') {
      if (!cur) {
        cur = { songs: 0, playtime: 0, group: null };
        out.push(cur);
      }
      cur[k] = toInt(value) ?? 0;
    } else {
      cur = { songs: 0, playtime: 0, group: { tag: k, value } };
      out.push(cur);
    }
  }
  return out;
};

const lsStarts = new Set(['file', 'directory', 'playlist']);

const lsinfo = (lines: ReplyLine[]) =>
  splitRecords(lines, lsStarts).flatMap((r): object[] => {
    const head = r[0]!;
    const k = head.key.toLowerCase();
    const lm = get(r, 'last-modified') ?? null;
    if (k === 'directory') return [{ DirInfo: { dir: { directory: head.value, ...withRaw('directory', head), 'Last-Modified': lm } } }];
    if (k === 'playlist') return [{ PlaylistInfo: { playlist: { playlist: head.value, ...withRaw('playlist', head), 'Last-Modified': lm } } }];
    if (k === 'file') return [{ SongInfo: { song: toSong(r).song } }];
    return [];
  });

const listfiles = (lines: ReplyLine[]) =>
  splitRecords(lines, lsStarts).flatMap((r): object[] => {
    const head = r[0]!;
    const k = head.key.toLowerCase();
    const lm = get(r, 'last-modified') ?? null;
    if (k === 'directory') return [{ Directory: { directory: head.value, ...withRaw('directory', head), 'Last-Modified': lm } }];
    if (k === 'file') return [{ Basic: { file: head.value, ...withRaw('file', head), size: toInt(get(r, 'size')), 'Last-Modified': lm } }];
    return [];
  });

const records = (lines: ReplyLine[], start: string) =>
  splitRecords(lines, new Set([start])).filter((r) => r[0]!.key.toLowerCase() === start);

const outputs = (lines: ReplyLine[]) =>
  records(lines, 'outputid').map((r) => {
    const attributes = Object.create(null) as Record<string, string>;
    for (const a of values(r, 'attribute')) {
      const { name, value } = nameValue(a);
      attributes[name] = value;
    }
    return {
      id: r[0]!.value,
      name: get(r, 'outputname') ?? '',
      enabled: bool(get(r, 'outputenabled')),
      plugin: get(r, 'plugin') ?? null,
      attributes,
    };
  });

const binary = (lines: ReplyLine[]): Typed => {
  const chunk = lines.find((l) => l.data);
  return {
    type: 'BinaryAnswer',
    result: {
      size: toInt(get(lines, 'size')),
      mimeType: get(lines, 'type') ?? null,
      binary: chunk?.data?.length ?? 0,
      data: chunk?.data?.toString('base64') ?? '',
    },
  };
};

/**
 * A stored playlist's songs: `items` the names, and `itemsRaw` only when a
 * name is not valid UTF-8: per item its bytes in base64, or null for a valid name.
 */
const storedPlaylist = (lines: ReplyLine[]): { items: string[]; itemsRaw?: Array<string | null> } => {
  const files = lines.filter((l) => l.key.toLowerCase() === 'file');
  const items = files.map((l) => l.value);
  if (!files.some((l) => l.raw)) return { items };
  return { items, itemsRaw: files.map((l) => l.raw?.toString('base64') ?? null) };
};

type Converter = (lines: ReplyLine[], sub: string, hasArgs: boolean) => Typed | undefined;

const songList: Converter = (l) => ({ type: 'SongListAnswer', result: { songs: toSongs(l) } });
const playlist: Converter = (l) => ({ type: 'PlaylistAnswer', result: { songs: toPlaylistSongs(l) } });

/** Commands whose answer is `OK` alone. */
const emptyCommands = `clearerror consume crossfade mixrampdb mixrampdelay random repeat setvol single replay_gain_mode
  next pause play playid previous seek seekid seekcur stop add clear delete deleteid move moveid prio prioid rangeid
  shuffle swap swapid addtagid cleartagid load playlistadd playlistclear playlistdelete playlistmove rename rm save
  findadd searchadd searchaddpl mount unmount password ping disableoutput enableoutput toggleoutput outputset
  subscribe unsubscribe sendmessage kill volume binarylimit partition newpartition delpartition moveoutput close`.split(/\s+/);

const converters: Record<string, Converter> = {
  status,
  stats: (l) => ({ type: 'StatsAnswer', result: Object.fromEntries(statsKeys.map((k) => [k, toInt(get(l, k))])) }),
  currentsong: (l) => ({ type: 'CurrentSongAnswer', result: { song: l.length > 0 ? toPlaylistSong(l) : null } }),
  find: songList,
  search: songList,
  listplaylistinfo: songList,
  playlistinfo: playlist,
  playlistid: playlist,
  playlistfind: playlist,
  playlistsearch: playlist,
  plchanges: playlist,
  list: (l) => ({ type: 'ListAnswer', result: { tags: l.map((x) => ({ tag: x.key.toLowerCase(), value: x.value, ...withRaw('value', x) })) } }),
  count: (l) => ({ type: 'SongCountAnswer', result: { songCounts: counts(l) } }),
  listplaylists: (l) => ({
    type: 'PlaylistSummaryAnswer',
    result: { playlist: records(l, 'playlist').map((r) => ({ playlist: r[0]!.value, 'Last-Modified': get(r, 'last-modified') ?? null })) },
  }),
  listplaylist: (l) => ({ type: 'StoredPlaylistAnswer', result: { playlist: storedPlaylist(l) } }),
  lsinfo: (l) => ({ type: 'LsInfoAnswer', result: { infos: lsinfo(l) } }),
  listfiles: (l) => ({ type: 'FileListAnswer', result: { files: listfiles(l) } }),
  addid: (l) => ({ type: 'AddIdAnswer', result: { id: get(l, 'id') ?? '' } }),
  update: (l) => ({ type: 'JobIdAnswer', result: { jobId: get(l, 'updating_db') ?? '' } }),
  rescan: (l) => ({ type: 'JobIdAnswer', result: { jobId: get(l, 'updating_db') ?? '' } }),
  outputs: (l) => ({ type: 'OutputsAnswer', result: { outputs: outputs(l) } }),
  commands: (l) => ({ type: 'CommandsAnswer', result: { commands: values(l, 'command') } }),
  notcommands: (l) => ({ type: 'CommandsAnswer', result: { commands: values(l, 'command') } }),
  // `tagtypes clear|all|enable|disable` change the connection's tag list and answer nothing
  tagtypes: (l, _s, hasArgs) =>
    hasArgs ? (l.length === 0 ? { type: 'Empty', result: {} } : undefined) : { type: 'TagTypesAnswer', result: { tags: values(l, 'tagtype').map((t) => t.toLowerCase()) } },
  urlhandlers: (l) => ({ type: 'UrlHandlerAnswer', result: { handlers: values(l, 'handler') } }),
  decoders: (l) => ({
    type: 'DecodersAnswer',
    result: { plugins: records(l, 'plugin').map((r) => ({ plugin: r[0]!.value, suffixes: values(r, 'suffix'), mimeTypes: values(r, 'mime_type') })) },
  }),
  channels: (l) => ({ type: 'ChannelsAnswer', result: { channels: values(l, 'channel') } }),
  readmessages: (l) => ({
    type: 'ReadMessagesAnswer',
    result: { messages: records(l, 'channel').map((r) => ({ channel: r[0]!.value, message: get(r, 'message') ?? '' })) },
  }),
  readcomments: (l) => ({ type: 'ReadCommentsAnswer', result: { values: keyValues(l) } }),
  replay_gain_status: (l) => ({ type: 'ReplayGainStatusAnswer', result: { replayGainMode: get(l, 'replay_gain_mode') ?? 'off' } }),
  sticker: (l, sub) => {
    const stickers = values(l, 'sticker').map(nameValue);
    if (sub === 'get') return stickers[0] ? { type: 'StickerAnswer', result: { sticker: stickers[0] } } : undefined;
    if (sub === 'list') return { type: 'StickerListAnswer', result: { stickers } };
    if (sub === 'find') {
      return {
        type: 'StickerFindAnswer',
        result: { stickers: records(l, 'file').map((r) => ({ file: r[0]!.value, ...withRaw('file', r[0]!), sticker: nameValue(get(r, 'sticker') ?? '') })) },
      };
    }
    if (l.length === 0 && sub !== 'get') return { type: 'Empty', result: {} };
    return undefined;
  },
  albumart: binary,
  readpicture: binary,
};

for (const name of emptyCommands) {
  converters[name] = (l) => (l.length === 0 ? { type: 'Empty', result: {} } : undefined);
}

/**
 * The typed answer of a known command, or undefined (→ `GenericAnswer`).
 * Throws `UnreadableAnswerError` for a reply that does not say what the
 * command's answer must.
 */
export const typedAnswer = (name: string, sub: string, hasArgs: boolean, lines: ReplyLine[]): Typed | undefined =>
  Object.hasOwn(converters, name) ? converters[name]!(lines, sub, hasArgs) : undefined;

/** Whether a command's answer is `Empty` (used to decode plain command lists). */
export const isEmptyCommand = (name: string): boolean => emptyCommands.includes(name);

