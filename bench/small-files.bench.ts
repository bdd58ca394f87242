/**
 * small files, as guests produce them: BENCH_SMALL_FILES (300) files of
 * BENCH_SMALL_SIZE (1 MiB), one upload each, BENCH_SMALL_CONCURRENCY (4) at a
 * time over a keep-alive connection each, from one client process. tus with
 * creation-with-upload (one POST carrying the whole file) into bare
 * @tus/server + @tus/file-store and into Pier (both stores, one new share per
 * trial); one PUT each into the raw sink as the floor.
 */
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { startBareTus, startSink } from './lib/anchors.js';
import { uploadClient } from './lib/clients.js';
import { dirContender, pierContender } from './lib/contenders.js';
import type { Work } from './lib/data.js';
import { startPier } from './lib/pier.js';
import type { Started } from './lib/process.js';
import { formatSize, settings } from './lib/settings.js';
import { runRounds, type Scenario } from './lib/trials.js';

export const benchSmallFiles = async (work: Work): Promise<Scenario> => {
  const { smallFiles: count, smallSize: size, smallConcurrency: concurrency } = settings;
  const file = work.file('small.bin', size);
  const started: Started[] = [];
  const start = async <T extends Started>(p: Promise<T>): Promise<T> => {
    const s = await p;
    started.push(s);
    return s;
  };
  try {
    const sinkDir = mkdtempSync(join(work.dir, 'small-sink-'));
    const bareDir = mkdtempSync(join(work.dir, 'small-bare-'));
    const sink = await start(startSink(sinkDir));
    const bare = await start(startBareTus(bareDir));
    const fs = await start(startPier('file-system', work.dir));
    const db = await start(startPier('database', work.dir));
    const client = (protocol: 'tus' | 'put', url: string, headers: Record<string, string> = {}) =>
      uploadClient({ protocol, url, headers, file, chunk: size, count, concurrency });
    return await runRounds(
      `small files: ${count} files of ${formatSize(size)}, one upload each (tus creation-with-upload), ${concurrency} at a time`,
      'files/s',
      [
        dirContender('raw sink', sink.pid, sinkDir, () => client('put', sink.url), count, size),
        dirContender('bare @tus/server', bare.pid, bareDir, () => client('tus', bare.url), count, size),
        pierContender('Pier fs', fs, (url, headers) => client('tus', url, headers), count, size),
        pierContender('Pier db', db, (url, headers) => client('tus', url, headers), count, size),
      ],
      settings.rounds,
    );
  } finally {
    await Promise.all(started.map((s) => s.stop()));
  }
};
