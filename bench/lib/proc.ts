/**
 * What a server costs, read from Linux' /proc: CPU seconds and peak resident
 * memory of a process and its descendants (nginx' workers, tsx' child).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

/** clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux) */
const HZ = 100;

interface Stat {
  ppid: number;
  /** utime + stime + cutime + cstime, in ticks */
  ticks: number;
}

const readStat = (pid: number): Stat | undefined => {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name may hold spaces and parentheses: the fields start after the last ')'
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]) };
  } catch {
    return undefined;
  }
};

/** `pid` and every live process below it. */
export const processTree = (pid: number): number[] => {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const s = readStat(Number(name));
    if (s) children.set(s.ppid, [...(children.get(s.ppid) ?? []), Number(name)]);
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]!) ?? []));
  return tree;
};

/** CPU seconds (user + system) used so far by the tree, including its children that have ended. */
export const cpuSeconds = (pid: number): number => processTree(pid).reduce((sum, p) => sum + (readStat(p)?.ticks ?? 0), 0) / HZ;

/** Sets the peak resident size (VmHWM) of every process of the tree back to its current size. */
export const resetPeak = (pid: number): void => {
  for (const p of processTree(pid)) {
    try {
      writeFileSync(`/proc/${p}/clear_refs`, '5');
    } catch {
      // ended meanwhile
    }
  }
};

/** Sum of the peak resident sizes (VmHWM) of the tree since the last reset, in MB (MiB). */
export const peakRssMb = (pid: number): number => {
  let kb = 0;
  for (const p of processTree(pid)) {
    try {
      kb += Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // ended meanwhile
    }
  }
  return kb / 1024;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Waits until the tree is idle (at most one 10 ms tick of CPU in 300 ms, at most 60 s),
 * so work a server defers after answering (checksums, cleanup) is counted for
 * the trial that caused it and does not slow down the next one. Returns the
 * CPU seconds at that point.
 */
export const settle = async (pid: number): Promise<number> => {
  const until = Date.now() + 60_000;
  let last = cpuSeconds(pid);
  while (Date.now() < until) {
    await sleep(300);
    const now = cpuSeconds(pid);
    if (now - last <= 0.0101) return now;
    last = now;
  }
  return last;
};
