/**
 * zip: BENCH_ZIP_FILES (20) files of BENCH_ZIP_FILE_SIZE (50 MiB) random
 * bytes, uploaded as application/octet-stream; Pier's ZIP route (file-system
 * and database store) against archiver storing the same files (no
 * compression) into its response (baselines/zip-server.mjs), all fetched with
 * curl. Random bytes are stored, not deflated: Pier reads each file once,
 * with the CRC-32 computed at upload.
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
    const pierDb = await startPier('database', work.dir);
    started.push(pierDb);
    const shareOf = async (p: typeof pier): Promise<string> => {
      const share = await p.newShare();
      for (const file of files) await uploadClient({ protocol: 'tus', url: p.tusUrl(share), headers: { 'Service-Auth': p.token }, file, chunk: settings.chunk });
      return share;
    };
    const share = await shareOf(pier);
    const shareDb = await shareOf(pierDb);
    const atLeast = zipFiles * zipFileSize;
    return await runRounds(
      `zip: ${zipFiles} files of ${formatSize(zipFileSize)} random bytes as one ZIP, with curl into /dev/null`,
      'MiB/s',
      [
        { name: 'archiver STORE', pid: archiver.pid, run: () => curl(archiver.url, {}, { atLeast }) },
        { name: 'Pier fs', pid: pier.pid, run: () => curl(`${pier.url}/api/v2/sec/share/${share}/zip`, { 'Service-Auth': pier.token }, { atLeast }) },
        { name: 'Pier db', pid: pierDb.pid, run: () => curl(`${pierDb.url}/api/v2/sec/share/${shareDb}/zip`, { 'Service-Auth': pierDb.token }, { atLeast }) },
      ],
      settings.rounds,
    );
  } finally {
    await Promise.all(started.map((s) => s.stop()));
  }
};
