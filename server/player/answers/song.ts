/**
 * Songs as the gateway returns them: the known metadata as fields, every tag
 * under its lower-case name, `tags.<name>` holding the first value and
 * `allTags.<name>` every value (MPD repeats a line for a multi-value tag).
 */
import type { ReplyLine } from '../protocol/reply.js';

export interface Song {
  file: string;
  /** the bytes of `file` in base64, only when they are not valid UTF-8 (`file` then has U+FFFD in their place) */
  fileRaw?: string;
  'Last-Modified': string | null;
  added: string | null;
  /** whole seconds (MPD's deprecated `Time`) */
  time: number | null;
  /** seconds with fractions */
  duration: number | null;
  format: string | null;
  tags: Record<string, string>;
  allTags: Record<string, string[]>;
}

export interface PlaylistSong {
  song: Song;
  pos: number;
  /** song ids are strings */
  id: string;
  prio: number | null;
}

const songFields = new Set(['file', 'last-modified', 'added', 'time', 'duration', 'format', 'pos', 'id', 'prio']);

/**
 * `{<name>Raw: base64}` when the line's value is not valid UTF-8 (a name in
 * another encoding), so a client can address it again with `commandRaw`; `{}` otherwise.
 */
export const withRaw = (name: string, line: ReplyLine): Record<string, string> => (line.raw ? { [`${name}Raw`]: line.raw.toString('base64') } : {});

export const toInt = (v: string | undefined): number | null => {
  if (v === undefined || v === '') return null;
  const n = Number.parseInt(v, 10);
  return Number.isFinite(n) ? n : null;
};

export const toFloat = (v: string | undefined): number | null => {
  if (v === undefined || v === '') return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
};

/** One song from its lines (the first is `file: ...`). Returns the queue fields separately. */
export const toSong = (lines: ReplyLine[]): { song: Song; pos: string | undefined; id: string | undefined; prio: string | undefined } => {
  const song: Song = { file: '', 'Last-Modified': null, added: null, time: null, duration: null, format: null, tags: Object.create(null) as Record<string, string>, allTags: Object.create(null) as Record<string, string[]> };
  let pos: string | undefined;
  let id: string | undefined;
  let prio: string | undefined;
  for (const { key, value, raw } of lines) {
    const k = key.toLowerCase();
    if (!songFields.has(k)) {
      const all = song.allTags[k];
      if (all) all.push(value);
      else {
        song.allTags[k] = [value];
        song.tags[k] = value;
      }
      continue;
    }
    switch (k) {
      case 'file':
        song.file = value;
        if (raw) song.fileRaw = raw.toString('base64');
        break;
      case 'last-modified':
        song['Last-Modified'] = value;
        break;
      case 'added':
        song.added = value;
        break;
      case 'time':
        song.time = toInt(value);
        break;
      case 'duration':
        song.duration = toFloat(value);
        break;
      case 'format':
        song.format = value;
        break;
      case 'pos':
        pos = value;
        break;
      case 'id':
        id = value;
        break;
      case 'prio':
        prio = value;
        break;
    }
  }
  return { song, pos, id, prio };
};

export const toPlaylistSong = (lines: ReplyLine[]): PlaylistSong => {
  const { song, pos, id, prio } = toSong(lines);
  return { song, pos: toInt(pos) ?? 0, id: id ?? '', prio: toInt(prio) };
};

/**
 * Cuts lines into records, each starting at a line whose lower-case key is
 * in `starts`. Lines before the first start line are dropped only when
 * `keepLeading` is false.
 */
export const splitRecords = (lines: ReplyLine[], starts: ReadonlySet<string>): ReplyLine[][] => {
  const out: ReplyLine[][] = [];
  let cur: ReplyLine[] | undefined;
  for (const l of lines) {
    if (starts.has(l.key.toLowerCase()) || !cur) {
      cur = [];
      out.push(cur);
    }
    cur.push(l);
  }
  return out;
};

const fileStart = new Set(['file']);

export const toSongs = (lines: ReplyLine[]): Song[] =>
  splitRecords(lines, fileStart)
    .filter((r) => r[0]!.key.toLowerCase() === 'file')
    .map((r) => toSong(r).song);

export const toPlaylistSongs = (lines: ReplyLine[]): PlaylistSong[] =>
  splitRecords(lines, fileStart)
    .filter((r) => r[0]!.key.toLowerCase() === 'file')
    .map(toPlaylistSong);
