/**
 * The one table that ends `npm run bench`: every target as a ratio against
 * an anchor of the same run (or an absolute bound), median of the rounds with
 * the min–max of the per-round ratios, marked met / not met.
 */
import type { LoadResult } from '../load.bench.js';
import { cpuPerGiB, fmt, median, printTable, rate, type Sample, type Scenario } from './trials.js';

export interface Results {
  upload?: Scenario;
  download?: Scenario;
  ranges?: Scenario;
  zip?: Scenario;
  small?: Scenario;
  gateway?: Scenario;
  load?: LoadResult;
}

/**
 * `for scale`: a ratio printed to read the others by, with no target of its own;
 * `within noise`: a parity target whose bound lies inside the per-round range
 */
export type Status = 'met' | 'not met' | 'not run' | 'no record' | 'for scale' | 'within noise';

export interface Row {
  key: string;
  what: string;
  /** the ratio (or the absolute value) that the target is about */
  value?: number;
  min?: number;
  max?: number;
  unit: '×' | 'MB' | 'ms' | '';
  /** the number the target compares with */
  bound?: number;
  target: string;
  status: Status;
}

type Metric = (s: Sample) => number;

/** median(a) / median(b) with the range of the per-round ratios; undefined when either did not run */
const ratio = (s: Scenario | undefined, a: string, b: string, metric: Metric) => {
  const xs = s?.samples[a];
  const ys = s?.samples[b];
  if (!s || !xs?.length || !ys?.length) return undefined;
  const rounds = xs.map((x, i) => metric(x) / metric(ys[i]!));
  return { value: median(xs.map(metric)) / median(ys.map(metric)), min: Math.min(...rounds), max: Math.max(...rounds) };
};

/** Ratio rows that must stay where an earlier run (BENCH_BASELINE) had them, within 10 %. */
const UNCHANGED = 0.9;

export const targetRows = (r: Results, baseline: Row[] | undefined): Row[] => {
  const rows: Row[] = [];
  const speed = (s: Scenario | undefined): Metric => (x) => rate(x, s?.unit ?? 'MiB/s');
  const atLeast = (key: string, what: string, s: Scenario | undefined, a: string, b: string, bound: number, metric = speed(s)) => {
    const q = ratio(s, a, b, metric);
    rows.push({ key, what, ...q, unit: '×', bound, target: `≥ ${bound.toFixed(1)}×`, status: !q ? 'not run' : q.value >= bound ? 'met' : 'not met' });
  };
  /**
   * Parity with an anchor that does the same work: met at or above the
   * bound; a median below it whose per-round range still reaches it cannot
   * be told apart from the bound, and says so with that range.
   */
  const parity = (key: string, what: string, s: Scenario | undefined, a: string, b: string, bound: number) => {
    const q = ratio(s, a, b, speed(s));
    const status: Status = !q ? 'not run' : q.value >= bound ? 'met' : q.max >= bound ? 'within noise' : 'not met';
    rows.push({ key, what, ...q, unit: '×', bound, target: `≥ ${bound.toFixed(1)}× (or the rounds' range reaches it)`, status });
  };
  const forScale = (key: string, what: string, s: Scenario | undefined, a: string, b: string, target: string) => {
    const q = ratio(s, a, b, speed(s));
    rows.push({ key, what, ...q, unit: '×', target, status: q ? 'for scale' : 'not run' });
  };
  const unchanged = (key: string, what: string, s: Scenario | undefined, a: string, b: string) => {
    const q = ratio(s, a, b, speed(s));
    const before = baseline?.find((x) => x.key === key)?.value;
    const target = before === undefined ? 'unchanged (no BENCH_BASELINE)' : `≥ ${(before * UNCHANGED).toFixed(2)}× (recorded ${before.toFixed(2)}× − 10 %)`;
    const status: Status = !q ? 'not run' : before === undefined ? 'no record' : q.value >= before * UNCHANGED ? 'met' : 'not met';
    rows.push({ key, what, ...q, unit: '×', ...(before === undefined ? {} : { bound: before * UNCHANGED }), target, status });
  };

  // Every tus request goes through @tus/server, whose own PATCH path bare @tus/server reaches
  // about 0.8× of the sink with: the rates against the sink are for scale, the CPU is the target.
  parity('upload-fs-bare', 'upload, Pier fs / bare @tus/server', r.upload, 'Pier fs', 'bare @tus/server', 1.0);
  forScale('upload-fs-sink', 'upload, Pier fs / raw sink', r.upload, 'Pier fs', 'raw sink', 'none: the library\'s PATCH path, for scale');
  const cpu = ratio(r.upload, 'Pier fs', 'raw sink', cpuPerGiB);
  rows.push({
    key: 'upload-fs-cpu',
    what: 'upload, server CPU per GiB, Pier fs / raw sink',
    ...cpu,
    unit: '×',
    bound: 1.5,
    target: '≤ 1.5× (or the rounds\' range reaches it)',
    // the hash (about 1.0 s per GiB) is a third of this ratio; runs of the same build land 1.4–1.6×
    status: !cpu ? 'not run' : cpu.value <= 1.5 ? 'met' : cpu.min <= 1.5 ? 'within noise' : 'not met',
  });
  forScale('upload-db-sink', 'upload, Pier db / raw sink', r.upload, 'Pier db', 'raw sink', 'none: for scale');
  // the database store: every chunk is a statement on the event loop
  atLeast('upload-db-bare', 'upload, Pier db / bare @tus/server', r.upload, 'Pier db', 'bare @tus/server', 0.4);
  atLeast('download-fs-nginx', 'download, Pier fs / nginx sendfile', r.download, 'Pier fs', 'nginx sendfile', 1.0);
  atLeast('download-db-nginx', 'download, Pier db / nginx sendfile', r.download, 'Pier db', 'nginx sendfile', 0.6);
  unchanged('ranges-fs-nginx', 'ranges, Pier fs / nginx sendfile', r.ranges, 'Pier fs', 'nginx sendfile');
  unchanged('ranges-db-nginx', 'ranges, Pier db / nginx sendfile', r.ranges, 'Pier db', 'nginx sendfile');
  atLeast('zip-archiver', 'ZIP, Pier fs / archiver STORE', r.zip, 'Pier fs', 'archiver STORE', 1.0);
  unchanged('zip-unchanged', 'ZIP, Pier fs / archiver STORE, against the record', r.zip, 'Pier fs', 'archiver STORE');
  forScale('zip-db', 'ZIP, Pier db / archiver STORE', r.zip, 'Pier db', 'archiver STORE', 'none: the database store, for scale');
  // per file, Pier does what bare @tus/server does plus its database rows (share, file, checksum)
  atLeast('small-fs-bare', 'small files, Pier fs / bare @tus/server (files/s)', r.small, 'Pier fs', 'bare @tus/server', 0.8);

  // memory: the highest peak of any Pier trial of the transfer scenarios
  const pier = [r.upload, r.download, r.ranges, r.zip, r.small].flatMap((s) =>
    Object.entries(s?.samples ?? {})
      .filter(([name]) => name.startsWith('Pier'))
      .flatMap(([name, xs]) => xs.map((x) => ({ rss: x.rssMb, where: `${s!.title.split(':')[0]}, ${name}` }))),
  );
  const worst = pier.reduce<{ rss: number; where: string } | undefined>((w, x) => (!w || x.rss > w.rss ? x : w), undefined);
  rows.push({
    key: 'rss-transfers',
    what: `peak RSS of Pier, highest trial${worst ? ` (${worst.where})` : ''}`,
    value: worst?.rss,
    unit: 'MB',
    bound: 150,
    target: '< 150 MB',
    status: !worst ? 'not run' : worst.rss < 150 ? 'met' : 'not met',
  });
  const load = r.load;
  rows.push({ key: 'load-rss', what: 'load, peak RSS of Pier', value: load?.rssMb, unit: 'MB', target: '< 250 MB', status: !load ? 'not run' : load.rssMb < 250 ? 'met' : 'not met' });
  rows.push({ key: 'load-errors', what: 'load, errors', value: load?.errors, unit: '', target: '0', status: !load ? 'not run' : load.errors === 0 ? 'met' : 'not met' });

  // what a room feels is latency; throughput against a bare forwarder is shown for scale only
  forScale('gateway-forwarder', 'gateway, Pier / forwarder (req/s)', r.gateway, 'Pier', 'forwarder', 'none: for scale (p99 is the target)');
  forScale('gateway-express', 'gateway, express forwarder / forwarder (req/s)', r.gateway, 'express forwarder', 'forwarder', 'none: the ceiling of an express app');
  const p99 = r.gateway?.samples['Pier']?.map((x) => x.p99 ?? NaN);
  const p99Median = p99?.length ? median(p99) : undefined;
  rows.push({
    key: 'gateway-p99',
    what: 'gateway, Pier p99 latency',
    value: p99Median,
    ...(p99?.length ? { min: Math.min(...p99), max: Math.max(...p99) } : {}),
    unit: 'ms',
    bound: 10,
    target: '< 10 ms',
    status: p99Median === undefined ? 'not run' : p99Median < 10 ? 'met' : 'not met',
  });
  return rows;
};

export const printTargets = (rows: Row[]): void => {
  const show = (r: Row) => {
    if (r.value === undefined) return '–';
    // a value that rounds onto its bound gets one more digit, so "0.70× not met" cannot happen
    const shown = r.unit === '' ? String(r.value) : fmt(r.value);
    const num = r.bound !== undefined && Number(shown) === Number(fmt(r.bound)) && r.value !== r.bound ? r.value.toFixed(3) : shown;
    const v = `${num}${r.unit === '×' ? '×' : r.unit ? ` ${r.unit}` : ''}`;
    return r.min === undefined ? v : `${v} [${fmt(r.min)}–${fmt(r.max!)}]`;
  };
  console.log('\nTargets: median of the rounds [min–max of the per-round ratios]');
  printTable(['', 'measured', 'target', ''], rows.map((r) => [r.what, show(r), r.target, r.status]));
};
