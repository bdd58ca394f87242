/**
 * The convenience endpoints (`playerspecial`): query parameters become one
 * daemon command with every value quoted and escaped. Unknown parameter
 * names are refused rather than silently ignored, and so is a value with a
 * line break, CR or NUL (it would end the command and start another).
 */
import { isSafeArgument, unsafeArgumentMessage } from './protocol/command-line.js';
import { quoteArg } from './protocol/reply.js';
import { filterType, tagName } from './tags.js';

export type Query = Record<string, string | string[] | undefined>;
export type Built = { ok: true; command: string } | { ok: false; field: string; message: string };

const all = (v: string | string[] | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
const one = (q: Query, name: string): string | undefined => all(q[name]).at(-1);

const rangePattern = /^\d+:\d*$/;

/** Filter pairs from every parameter except `reserved`, in query order. */
const filters = (q: Query, reserved: readonly string[]): { ok: true; args: string[]; count: number } | Built => {
  const args: string[] = [];
  let count = 0;
  for (const [name, v] of Object.entries(q)) {
    if (reserved.includes(name)) continue;
    const type = filterType(name);
    if (!type) return { ok: false, field: name, message: `Unknown filter '${name}': use a tag name, any, file, base or modified-since.` };
    for (const value of all(v)) {
      if (!isSafeArgument(value)) return { ok: false, field: name, message: unsafeArgumentMessage(`The value of '${name}'`) };
      args.push(`${type} ${quoteArg(value)}`);
      count++;
    }
  }
  return { ok: true, args, count };
};

const groups = (q: Query): { ok: true; args: string[] } | Built => {
  const args: string[] = [];
  for (const g of all(q['group'])) {
    const t = tagName(g);
    if (!t) return { ok: false, field: 'group', message: `Unknown tag '${g}' in 'group'.` };
    args.push(`group ${t}`);
  }
  return { ok: true, args };
};

/** `search` (case-insensitive substrings) or `find` (exact): at least one filter, optional `sort=[-]tag` and `range=a:b`. */
export const searchCommand = (name: 'search' | 'find', q: Query): Built => {
  const f = filters(q, ['sort', 'range']);
  if (!('args' in f)) return f;
  if (f.count === 0) return { ok: false, field: 'query', message: `Some filter must be specified for ${name} (for example artist=...).` };
  const parts = [name, ...f.args];
  const sort = one(q, 'sort');
  if (sort !== undefined) {
    const desc = sort.startsWith('-');
    const t = tagName(desc ? sort.slice(1) : sort) ?? (/^-?last-modified$/i.test(sort) ? 'Last-Modified' : undefined);
    if (!t) return { ok: false, field: 'sort', message: `Unknown tag '${sort}' in 'sort'.` };
    parts.push(`sort ${desc ? '-' : ''}${t}`);
  }
  const range = one(q, 'range');
  if (range !== undefined) {
    if (!rangePattern.test(range)) return { ok: false, field: 'range', message: "'range' must be start:end, for example 0:20." };
    parts.push(`window ${range}`);
  }
  return { ok: true, command: parts.join(' ') };
};

/** `list <listtype> [filters] [group ...]`. */
export const listCommand = (q: Query): Built => {
  const listtype = one(q, 'listtype');
  if (listtype === undefined || listtype === '') return { ok: false, field: 'listtype', message: "'listtype' is required (a tag name, or file)." };
  const type = listtype.toLowerCase() === 'file' ? 'file' : tagName(listtype);
  if (!type) return { ok: false, field: 'listtype', message: `Unknown tag '${listtype}' in 'listtype'.` };
  const f = filters(q, ['listtype', 'group']);
  if (!('args' in f)) return f;
  const g = groups(q);
  if (!('args' in g)) return g;
  return { ok: true, command: ['list', type, ...f.args, ...g.args].join(' ') };
};

/** `count <tag> <value> [group ...]`: exactly one filter pair. */
export const countCommand = (q: Query): Built => {
  const f = filters(q, ['group']);
  if (!('args' in f)) return f;
  if (f.count !== 1) return { ok: false, field: 'query', message: 'count needs exactly one <tag>=<value> parameter.' };
  const g = groups(q);
  if (!('args' in g)) return g;
  return { ok: true, command: ['count', ...f.args, ...g.args].join(' ') };
};

/** `playlistinfo [pos | start:end]`; `pos` wins over `range`. Values are checked by the OpenAPI schema. */
export const playlistinfoCommand = (q: Query): Built => {
  const pos = one(q, 'pos');
  if (pos !== undefined) {
    if (!/^\d+$/.test(pos)) return { ok: false, field: 'pos', message: "'pos' must be a non-negative integer." };
    return { ok: true, command: `playlistinfo ${pos}` };
  }
  const range = one(q, 'range');
  if (range !== undefined) {
    if (!rangePattern.test(range)) return { ok: false, field: 'range', message: "'range' must be start:end, for example 0:20." };
    return { ok: true, command: `playlistinfo ${range}` };
  }
  return { ok: true, command: 'playlistinfo' };
};
