/**
 * zip: BENCH_ZIP_FILES (20) files of BENCH_ZIP_FILE_SIZE (50 MiB) random
 * bytes, uploaded as application/octet-stream; Pier's ZIP route (file-system
 * store) against archiver storing the same files (no compression) into its
 * response (baselines/zip-server.mjs), both fetched with curl.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startArchiverZip } from './lib/anchors.js';
import { curl, uploadClient } from './lib/clients.js';
import { randomFile, type Work } from './lib/data.js';
import { startPier } from './lib/pier.js';
import type { Started } from './lib/process.js';
import { formatSize, settings } from './lib/settings.js';
import { runRounds, type Scenario } from './lib/trials.js';

export const benchZip = async (work: Work): Promise<Scenario> => {
  const { zipFiles, zipFileSize } = settings;
  const dir = join(work.dir, 'zip');
  mkdirSync(dir);
  const files = Array.from({ length: zipFiles }, (_, i) => join(dir, `random-${String(i).padStart(3, '0')}.bin`));
  for (const f of files) randomFile(f, zipFileSize);
  const started: Started[] = [];
  try {
    const archiver = await startArchiverZip(dir);
    started.push(archiver);
    const pier = await startPier('file-system', work.dir);
    started.push(pier);
    const share = await pier.newShare();
    const headers = { 'Service-Auth': pier.token };
    for (const file of files) await uploadClient({ protocol: 'tus', url: pier.tusUrl(share), headers, file, chunk: settings.chunk });
    const atLeast = zipFiles * zipFileSize;
    return await runRounds(
      `zip: ${zipFiles} files of ${formatSize(zipFileSize)} random bytes as one ZIP, with curl into /dev/null`,
      'MiB/s',
      [
        { name: 'archiver STORE', pid: archiver.pid, run: () => curl(archiver.url, {}, { atLeast }) },
        { name: 'Pier fs', pid: pier.pid, run: () => curl(`${pier.url}/api/v2/sec/share/${share}/zip`, headers, { atLeast }) },
      ],
      settings.rounds,
    );
  } finally {
    await Promise.all(started.map((s) => s.stop()));
  }
};
