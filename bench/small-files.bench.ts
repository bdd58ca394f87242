/**
 * small files, as guests produce them: BENCH_SMALL_FILES (300) files of
 * BENCH_SMALL_SIZE (1 MiB), one upload each, BENCH_SMALL_CONCURRENCY (4) at a
 * time over a keep-alive connection each, from one client process. tus with
 * creation-with-upload (one POST carrying the whole file) into bare
 * @tus/server + @tus/file-store and into Pier (both stores, one new share per
 * trial); one PUT each into the raw sink as the floor.
 */
import { uploadClient } from './lib/clients.js';
import { startUploadServers, type UploadClient } from './lib/contenders.js';
import type { Work } from './lib/data.js';
import { formatSize, settings } from './lib/settings.js';
import { runRounds, type Scenario } from './lib/trials.js';

export const benchSmallFiles = async (work: Work): Promise<Scenario> => {
  const { smallFiles: count, smallSize: size, smallConcurrency: concurrency } = settings;
  const file = work.file('small.bin', size);
  const servers = await startUploadServers(work, 'small-');
  try {
    const client: UploadClient = (protocol, url, headers = {}) => uploadClient({ protocol, url, headers, file, chunk: size, count, concurrency });
    return await runRounds(
      `small files: ${count} files of ${formatSize(size)}, one upload each (tus creation-with-upload), ${concurrency} at a time`,
      'files/s',
      servers.contenders(client, count, size),
      settings.rounds,
    );
  } finally {
    await servers.stop();
  }
};
