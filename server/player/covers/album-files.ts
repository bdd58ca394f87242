/**
 * Finding a cover or booklet file for a song's directory: the configured
 * names next to the songs, then disc sub-folders (`CD1`, `Disc 2`, ...), then
 * the album folder above a disc folder. Every hit is checked to lie inside
 * the music directory (a symbolic link leading out does not count).
 */
import { readdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { checkInside, type Resolved } from '../files/safe-path.js';

/** `CD1`, `cd 2`, `Disc_03`, `DISK-IV`, `disc.10` */
const discPattern = /^(?:cd|disc|disk)[\s._-]*(\d{1,3}|[ivx]{1,5})$/i;

const romans: Record<string, number> = { i: 1, v: 5, x: 10 };
const discNumber = (name: string): number => {
  const m = discPattern.exec(name);
  const n = m?.[1] ?? '';
  if (/^\d+$/.test(n)) return Number(n);
  let total = 0;
  const s = n.toLowerCase();
  for (let i = 0; i < s.length; i++) {
    const v = romans[s[i]!] ?? 0;
    const next = romans[s[i + 1] ?? ''] ?? 0;
    total += v < next ? -v : v;
  }
  return total;
};

/** The candidate file names in order: every name with every extension (`cover.jpg` first by default). */
export const candidates = (names: string[], extensions: string[]): string[] =>
  names.flatMap((n) => extensions.map((e) => `${n}.${e}`));

const entries = async (dir: string): Promise<Array<{ name: string; dir: boolean }>> => {
  try {
    const list = await readdir(dir, { withFileTypes: true });
    return list.map((d) => ({ name: d.name, dir: d.isDirectory() || d.isSymbolicLink() }));
  } catch {
    return [];
  }
};

const firstIn = async (root: string, dir: string, names: string[]): Promise<Resolved | undefined> => {
  const present = new Set((await entries(dir)).map((e) => e.name));
  for (const n of names) {
    if (!present.has(n)) continue;
    const r = await checkInside(root, join(dir, n));
    if (r?.stats.isFile()) return r;
  }
  return undefined;
};

/**
 * The first matching file for the songs in `dir` (a real path inside
 * `root`), or undefined when there is none.
 */
export const findAlbumFile = async (root: string, dir: string, names: string[]): Promise<Resolved | undefined> => {
  const here = await firstIn(root, dir, names);
  if (here) return here;
  const discs = (await entries(dir))
    .filter((e) => e.dir && discPattern.test(e.name))
    .sort((a, b) => discNumber(a.name) - discNumber(b.name) || a.name.localeCompare(b.name));
  for (const d of discs) {
    const hit = await firstIn(root, join(dir, d.name), names);
    if (hit) return hit;
  }
  if (discPattern.test(basename(dir))) {
    const parent = dirname(dir);
    if (await checkInside(root, parent)) return firstIn(root, parent, names);
  }
  return undefined;
};
