/**
 * Resolving client-given paths inside a root directory. Every path the
 * gateway reads from disk goes through here: no `..` segment, no NUL, and
 * the real path (symbolic links followed) must still lie inside the root's
 * real path. Anything else is "not found", never an error with details.
 */
import { realpath, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { join, sep } from 'node:path';

export interface Resolved {
  /** the real path, inside the root */
  path: string;
  stats: Stats;
}

const realRoots = new Map<string, string>();

const realRoot = async (root: string): Promise<string | undefined> => {
  const known = realRoots.get(root);
  if (known) return known;
  try {
    const r = await realpath(root);
    realRoots.set(root, r);
    return r;
  } catch {
    return undefined;
  }
};

/** True when `real` is `root` or below it (both real paths). */
export const isInside = (root: string, real: string): boolean => real === root || real.startsWith(root.endsWith(sep) ? root : root + sep);

/**
 * The file or directory at `relative` (slash-separated, already
 * percent-decoded) below `root`, or undefined when it does not exist, is not
 * inside the root, or the path is malformed.
 */
export const resolveInside = async (root: string, relative: string): Promise<Resolved | undefined> => {
  if (!root || relative.includes('\0')) return undefined;
  const segments = relative.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.some((s) => s === '..')) return undefined;
  const base = await realRoot(root);
  if (!base) return undefined;
  try {
    const real = await realpath(join(base, ...segments));
    if (!isInside(base, real)) return undefined;
    return { path: real, stats: await stat(real) };
  } catch {
    return undefined;
  }
};

/** Like `resolveInside` for an absolute path found by the server itself (a candidate cover next to a song). */
export const checkInside = async (root: string, absolute: string): Promise<Resolved | undefined> => {
  const base = await realRoot(root);
  if (!base) return undefined;
  try {
    const real = await realpath(absolute);
    if (!isInside(base, real)) return undefined;
    return { path: real, stats: await stat(real) };
  } catch {
    return undefined;
  }
};
