/**
 * `GenericAnswer`: any reply as records of `key: value`, so nothing the
 * daemon said is lost. A new record starts at a key that begins one in MPD's
 * output (`file`, `directory`, `playlist`, ...), or at a key that repeats in a
 * record that did not start that way (`command: a`, `command: b`). Inside a
 * record that did (a song), a repeated key collects its values in an array.
 */
import type { ReplyLine } from '../protocol/reply.js';

export type GenericEntry = Record<string, string | string[]>;

const recordStarts = new Set([
  'file',
  'directory',
  'playlist',
  'mount',
  'neighbor',
  'partition',
  'outputid',
  'plugin',
  'channel',
  'cpos',
]);

const add = (entry: GenericEntry, key: string, value: string): void => {
  const prev = entry[key];
  if (prev === undefined) entry[key] = value;
  else if (Array.isArray(prev)) prev.push(value);
  else entry[key] = [prev, value];
};

export const toGeneric = (lines: ReplyLine[]): { entries: GenericEntry[] } => {
  const entries: GenericEntry[] = [];
  let cur: GenericEntry | undefined;
  let structured = false;
  for (const l of lines) {
    const starts = recordStarts.has(l.key.toLowerCase());
    if (!cur || starts || (!structured && Object.hasOwn(cur, l.key))) {
      cur = Object.create(null) as GenericEntry;
      entries.push(cur);
      structured = starts;
    }
    add(cur, l.key, l.value);
    // a value that is not valid UTF-8 goes along as its bytes, base64, under `<key>Raw`
    if (l.raw) add(cur, `${l.key}Raw`, l.raw.toString('base64'));
    // `binary: N` is followed by N bytes: they go along as base64 under `data`
    if (l.data) add(cur, 'data', l.data.toString('base64'));
  }
  return { entries };
};
