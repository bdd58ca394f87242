/**
 * Alternating rounds: every server of a scenario once per round, the order
 * turning by one each round; one warm-up round first that is not counted.
 * Each trial measures the client's transfer (timed by the client), the
 * server's CPU seconds and peak memory (from /proc), and the client's own CPU.
 */
import { execFileSync } from 'node:child_process';
import { peakRssMb, resetPeak, settle } from './proc.js';

export interface Transfer {
  bytes: number;
  files: number;
  /** wall time of the transfers, as the client measured it */
  seconds: number;
  /** CPU seconds of the client process(es) */
  clientCpu: number;
  /** latency percentiles of request-answer clients, ms */
  p50?: number;
  p99?: number;
}

export interface Sample extends Transfer {
  /** CPU seconds of the server's process tree, until it was idle again */
  serverCpu: number;
  /** peak resident memory of the server's process tree during the trial, MB */
  rssMb: number;
}

export interface Contender {
  name: string;
  /** the process tree measured; undefined when the server could not run */
  pid: number | undefined;
  /** before the timed part: e.g. a new share */
  prepare?(): Promise<void>;
  run(): Promise<Transfer>;
  /** after: check what arrived, remove it */
  cleanup?(): Promise<void>;
}

export type Unit = 'MiB/s' | 'files/s' | 'req/s';

export interface Scenario {
  title: string;
  unit: Unit;
  /** samples per contender, one per counted round, in round order */
  samples: Record<string, Sample[]>;
  /** contenders that did not run */
  notRun: string[];
}

const GiB = 1024 ** 3;
export const rate = (s: Sample, unit: Unit): number => (unit === 'MiB/s' ? s.bytes / 1024 ** 2 : s.files) / s.seconds;
export const cpuPerGiB = (s: Sample): number => s.serverCpu / (s.bytes / GiB);
export const clientCpuPerGiB = (s: Sample): number => s.clientCpu / (s.bytes / GiB);
/** share of one core the client used while transferring */
export const clientCore = (s: Sample): number => s.clientCpu / s.seconds;
export const serverCore = (s: Sample): number => s.serverCpu / s.seconds;

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const measure = async (c: Contender, pid: number): Promise<Sample> => {
  await c.prepare?.();
  const before = await settle(pid);
  resetPeak(pid);
  const t = await c.run();
  const after = await settle(pid);
  const rssMb = peakRssMb(pid);
  await c.cleanup?.();
  // written data goes to disk now, not during the next trial
  execFileSync('sync');
  return { ...t, serverCpu: after - before, rssMb };
};

export const runRounds = async (title: string, unit: Unit, contenders: Contender[], rounds: number): Promise<Scenario> => {
  console.log(`\n${title}`);
  const live = contenders.filter((c) => c.pid !== undefined);
  const samples: Record<string, Sample[]> = Object.fromEntries(live.map((c) => [c.name, []]));
  for (let round = 0; round <= rounds; round++) {
    const order = live.map((_, i) => live[(i + round) % live.length]!);
    const line: string[] = [];
    for (const c of order) {
      const s = await measure(c, c.pid!);
      if (round > 0) samples[c.name]!.push(s);
      line.push(`${c.name} ${fmt(rate(s, unit))}`);
    }
    console.log(`  ${round === 0 ? 'warm-up' : `round ${round}/${rounds}`}: ${line.join(' · ')} ${unit}`);
  }
  const scenario = { title, unit, samples, notRun: contenders.filter((c) => c.pid === undefined).map((c) => c.name) };
  printScenario(scenario);
  return scenario;
};

export const fmt = (x: number): string => (!Number.isFinite(x) ? '–' : x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const spread = (xs: number[]): string => `${fmt(median(xs))} [${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))}]`;
const pct = (xs: number[]): string => `${(median(xs) * 100).toFixed(0)} %`;

export const printTable = (head: string[], rows: string[][]): void => {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => `  ${r.map((c, i) => c.padEnd(widths[i]!)).join('  ')}`.trimEnd();
  console.log(line(head));
  for (const r of rows) console.log(line(r));
};

/** Per contender: median [min–max] of rate, server CPU per GiB, peak RSS; the cores server and client used. */
export const printScenario = (s: Scenario): void => {
  console.log(`  median [min–max] of ${Object.values(s.samples)[0]?.length ?? 0} rounds:`);
  if (s.unit === 'req/s') return printRequests(s);
  const rows = Object.entries(s.samples).map(([name, xs]) => [
    name,
    spread(xs.map((x) => rate(x, s.unit))),
    spread(xs.map(cpuPerGiB)),
    spread(xs.map((x) => x.rssMb)),
    pct(xs.map(serverCore)),
    spread(xs.map(clientCpuPerGiB)),
    pct(xs.map(clientCore)),
  ]);
  for (const name of s.notRun) rows.push([name, 'not run']);
  printTable([' ', s.unit, 'server CPU s/GiB', 'peak RSS MB', 'server core', 'client CPU s/GiB', 'client core'], rows);
};

/** Per contender: requests per second, latency percentiles, server CPU per request. */
const printRequests = (s: Scenario): void => {
  const rows = Object.entries(s.samples).map(([name, xs]) => [
    name,
    spread(xs.map((x) => rate(x, s.unit))),
    spread(xs.map((x) => x.p50 ?? NaN)),
    spread(xs.map((x) => x.p99 ?? NaN)),
    spread(xs.map((x) => (x.serverCpu / x.files) * 1e6)),
    spread(xs.map((x) => x.rssMb)),
    pct(xs.map(serverCore)),
    pct(xs.map(clientCore)),
  ]);
  printTable([' ', s.unit, 'p50 ms', 'p99 ms', 'server CPU µs/req', 'peak RSS MB', 'server core', 'client core'], rows);
};
