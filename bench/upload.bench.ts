/**
 * upload: one file of BENCH_SIZE (1 GiB) in BENCH_CHUNK (10 MiB) requests,
 * with the same client (clients/upload.mjs) against the raw sink (PUT),
 * bare @tus/server + @tus/file-store (tus), and Pier with the file-system
 * and the database (SQLite) store (tus); tus-js-client into Pier's file-system
 * store as the real-client check, outside the ratios.
 */
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { startBareTus, startSink } from './lib/anchors.js';
import { tusJsClient, uploadClient } from './lib/clients.js';
import { dirContender, pierContender } from './lib/contenders.js';
import type { Work } from './lib/data.js';
import { startPier } from './lib/pier.js';
import type { Started } from './lib/process.js';
import { formatSize, settings } from './lib/settings.js';
import { runRounds, type Scenario } from './lib/trials.js';

export const benchUpload = async (work: Work): Promise<Scenario> => {
  const { size, chunk } = settings;
  const file = work.file('big.bin', size);
  const started: Started[] = [];
  const start = async <T extends Started>(p: Promise<T>): Promise<T> => {
    const s = await p;
    started.push(s);
    return s;
  };
  try {
    const sinkDir = mkdtempSync(join(work.dir, 'sink-'));
    const bareDir = mkdtempSync(join(work.dir, 'bare-tus-'));
    const sink = await start(startSink(sinkDir));
    const bare = await start(startBareTus(bareDir));
    const fs = await start(startPier('file-system', work.dir));
    const db = await start(startPier('database', work.dir));
    const client = (protocol: 'tus' | 'put', url: string, headers: Record<string, string> = {}) =>
      uploadClient({ protocol, url, headers, file, chunk });
    return await runRounds(
      `upload: ${formatSize(size)} in ${formatSize(chunk)} requests, one client process (PUT for the sink, tus PATCH otherwise)`,
      'MiB/s',
      [
        dirContender('raw sink', sink.pid, sinkDir, () => client('put', sink.url), 1, size),
        dirContender('bare @tus/server', bare.pid, bareDir, () => client('tus', bare.url), 1, size),
        pierContender('Pier fs', fs, (url, headers) => client('tus', url, headers), 1, size),
        pierContender('Pier db', db, (url, headers) => client('tus', url, headers), 1, size),
        pierContender('Pier fs, tus-js-client', fs, (url, headers) => tusJsClient({ url, headers, file, chunk }), 1, size),
      ],
      settings.rounds,
    );
  } finally {
    await Promise.all(started.map((s) => s.stop()));
  }
};
