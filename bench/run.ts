/**
 * `npm run bench [-- part…]`: the benchmarks of docs/performance.md, each
 * server in its own process, measured in alternating rounds, then one table
 * of every target. Parts: upload, download (with ranges), zip, small-files,
 * load, gateway; all when none is named. Sizes and rounds come from BENCH_*
 * variables (lib/settings.ts). Needs `dist/` (`npm run build:server`).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { benchDownload } from './download.bench.js';
import { benchGateway } from './gateway.bench.js';
import { createWork, freeBytes } from './lib/data.js';
import { benchPath } from './lib/process.js';
import { formatSize, settings } from './lib/settings.js';
import { printTargets, targetRows, type Results, type Row } from './lib/targets.js';
import { clientCore, median } from './lib/trials.js';
import { benchLoad } from './load.bench.js';
import { benchSmallFiles } from './small-files.bench.js';
import { benchUpload } from './upload.bench.js';
import { benchZip } from './zip.bench.js';

const PARTS = ['upload', 'download', 'zip', 'small-files', 'load', 'gateway'] as const;
type Part = (typeof PARTS)[number];

const named = process.argv.slice(2);
const unknown = named.filter((n) => !(PARTS as readonly string[]).includes(n));
if (unknown.length) {
  console.error(`Unknown part(s): ${unknown.join(', ')}. Parts: ${PARTS.join(', ')}.`);
  process.exit(2);
}
const parts = new Set<Part>(named.length ? (named as Part[]) : PARTS);

if (!existsSync(benchPath('../dist/server/cli.js'))) {
  console.error('dist/server/cli.js is missing: run `npm run build:server` first.');
  process.exit(2);
}

// room for the sources, one upload in flight, and Pier's stored copies
const { size, zipFiles, zipFileSize, smallFiles, smallSize } = settings;
const need =
  (parts.has('upload') || parts.has('download') ? size : 0) +
  (parts.has('upload') ? size : 0) +
  (parts.has('download') ? 3 * size : 0) +
  (parts.has('zip') ? 2 * zipFiles * zipFileSize : 0) +
  (parts.has('small-files') ? 2 * smallFiles * smallSize : 0) +
  1024 ** 3;
const free = freeBytes(tmpdir());
if (free < need) {
  console.error(`${tmpdir()} has ${formatSize(free)} free; this run needs about ${formatSize(need)}. Free some space or set smaller BENCH_SIZE.`);
  process.exit(2);
}

const load1 = loadavg()[0]!;
console.log(
  `Pier benchmarks: ${[...parts].join(', ')}; ${settings.rounds} rounds; upload/download ${formatSize(size)}; ` +
    `load average ${load1.toFixed(2)}${load1 > 0.5 ? ' (the machine is busy: the numbers are noisy)' : ''}`,
);

const work = createWork();
const results: Results = {};
try {
  if (parts.has('upload')) results.upload = await benchUpload(work);
  if (parts.has('download')) {
    const { full, ranges } = await benchDownload(work);
    results.download = full;
    results.ranges = ranges;
  }
  if (parts.has('zip')) results.zip = await benchZip(work);
  if (parts.has('small-files')) results.small = await benchSmallFiles(work);
  if (parts.has('load')) results.load = await benchLoad(work);
  if (parts.has('gateway')) results.gateway = await benchGateway();
} finally {
  work.remove();
}

const baseline = settings.baseline ? (JSON.parse(readFileSync(settings.baseline, 'utf8')) as { targets: Row[] }).targets : undefined;
const rows = targetRows(results, baseline);
printTargets(rows);

// the clients must never be the limit: the busiest one, as a share of one core
const scenarios = [results.upload, results.download, results.ranges, results.zip, results.small, results.gateway].filter((s) => s !== undefined);
const busiest = scenarios
  .flatMap((s) => Object.entries(s.samples).map(([name, xs]) => ({ core: median(xs.map(clientCore)), where: `${s.title.split(':')[0]}, ${name}` })))
  .sort((a, b) => b.core - a.core)[0];
if (busiest) console.log(`\nBusiest client: ${(busiest.core * 100).toFixed(0)} % of one core (median; ${busiest.where}).`);
console.log(`Load average at the end: ${loadavg()[0]!.toFixed(2)}.`);

if (settings.json) {
  writeFileSync(settings.json, JSON.stringify({ date: new Date().toISOString(), settings, loadAverage: [load1, loadavg()[0]], results, targets: rows }, null, 2));
  console.log(`Results written to ${settings.json}.`);
}
