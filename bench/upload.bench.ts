/**
 * upload: one file of BENCH_SIZE (1 GiB) in BENCH_CHUNK (10 MiB) requests,
 * with the same client (clients/upload.mjs) against the raw sink (PUT),
 * bare @tus/server + @tus/file-store (tus), and Pier with the file-system
 * and the database (SQLite) store (tus); tus-js-client into Pier's file-system
 * store as the real-client check, outside the ratios.
 */
import { tusJsClient, uploadClient } from './lib/clients.js';
import { pierContender, startUploadServers, type UploadClient } from './lib/contenders.js';
import type { Work } from './lib/data.js';
import { formatSize, settings } from './lib/settings.js';
import { runRounds, type Scenario } from './lib/trials.js';

export const benchUpload = async (work: Work): Promise<Scenario> => {
  const { size, chunk } = settings;
  const file = work.file('big.bin', size);
  const servers = await startUploadServers(work, '');
  try {
    const client: UploadClient = (protocol, url, headers = {}) => uploadClient({ protocol, url, headers, file, chunk });
    return await runRounds(
      `upload: ${formatSize(size)} in ${formatSize(chunk)} requests, one client process (PUT for the sink, tus PATCH otherwise)`,
      'MiB/s',
      [
        ...servers.contenders(client, 1, size),
        pierContender('Pier fs, tus-js-client', servers.fs, (url, headers) => tusJsClient({ url, headers, file, chunk }), 1, size),
      ],
      settings.rounds,
    );
  } finally {
    await servers.stop();
  }
};
