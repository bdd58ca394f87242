/** Upload contenders that check what arrived and remove it after each trial. */
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { PierProcess } from './pier.js';
import type { Contender, Transfer } from './trials.js';

const check = (what: string, sizes: number[], count: number, size: number): void => {
  if (sizes.length !== count || sizes.some((s) => s !== size)) {
    throw new Error(`${what}: expected ${count} file(s) of ${size} bytes, found ${sizes.length} (${[...new Set(sizes)].join(', ')} bytes)`);
  }
};

/** An anchor that stores uploads as files of `dir` (tus' `.json` info files aside). */
export const dirContender = (name: string, pid: number, dir: string, run: () => Promise<Transfer>, count: number, size: number): Contender => ({
  name,
  pid,
  run,
  async cleanup() {
    const names = readdirSync(dir);
    check(name, names.filter((n) => !n.endsWith('.json')).map((n) => statSync(join(dir, n)).size), count, size);
    for (const n of names) rmSync(join(dir, n), { force: true });
  },
});

/** Pier: a new share for every trial, checked and deleted afterwards. */
export const pierContender = (
  name: string,
  pier: PierProcess,
  run: (url: string, headers: Record<string, string>) => Promise<Transfer>,
  count: number,
  size: number,
): Contender => {
  let share = '';
  return {
    name,
    pid: pier.pid,
    prepare: async () => {
      share = await pier.newShare();
    },
    run: () => run(pier.tusUrl(share), { 'Service-Auth': pier.token }),
    async cleanup() {
      check(name, (await pier.files(share)).map((f) => f.size), count, size);
      await pier.deleteShare(share);
    },
  };
};
