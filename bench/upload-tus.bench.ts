/**
 * upload-tus: 1 GiB through Pier's tus route (10 MiB client chunks with
 * tus-js-client) against a minimal sink that pipes request bodies into a
 * file, and against bare @tus/server + @tus/file-store, alternating, 3 rounds.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomFile } from './lib/data.js';
import { startPier } from './lib/pier.js';
import { mbPerSecond, report, startNode } from './lib/process.js';
import { tusUpload } from './lib/upload.js';

const SIZE = Number(process.env['BENCH_UPLOAD_BYTES'] ?? 1024 ** 3);
const ROUNDS = 3;
const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

const upload = async (file: string, endpoint: string, headers: Record<string, string>): Promise<number> => {
  const started = performance.now();
  await tusUpload(file, endpoint, headers);
  return mbPerSecond(SIZE, performance.now() - started);
};

export const benchUploadTus = async (): Promise<void> => {
  const work = mkdtempSync(join(tmpdir(), 'pier-bench-up-'));
  try {
    const file = join(work, 'big.bin');
    randomFile(file, SIZE);
    for (const store of ['file-system', 'database'] as const) {
      const pier = await startPier(store);
      const sinkDir = mkdtempSync(join(work, 'sink-'));
      const sink = await startNode([here('./baselines/sink-server.mjs'), sinkDir], /listening (\S+)/);
      const bareDir = mkdtempSync(join(work, 'bare-'));
      const bare = await startNode([here('./baselines/bare-tus.mjs'), bareDir], /listening (\S+)/);
      const pierRates: number[] = [];
      const sinkRates: number[] = [];
      const bareRates: number[] = [];
      try {
        for (let round = 0; round < ROUNDS; round++) {
          const share = await pier.newShare();
          pierRates.push(await upload(file, `${pier.url}/api/v2/sec/upload/${share}/files/tus`, { 'Service-Auth': pier.token }));
          sinkRates.push(await upload(file, `${sink.match[1]}/files`, {}));
          if (store === 'file-system') bareRates.push(await upload(file, `${bare.match[1]}/files`, {}));
        }
        const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
        const extra =
          store === 'file-system'
            ? `; vs bare @tus/server + @tus/file-store: ratio ${(mean(pierRates) / mean(bareRates)).toFixed(2)} (bare ${mean(bareRates).toFixed(0)} MB/s)`
            : '';
        report(`upload-tus (${store} store)`, pierRates, sinkRates, pier.peakRssMb(), extra);
      } finally {
        await Promise.all([pier.stop(), sink.stop(), bare.stop()]);
        rmSync(sinkDir, { recursive: true, force: true });
        rmSync(bareDir, { recursive: true, force: true });
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
};
