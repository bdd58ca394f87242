/**
 * download: a 1 GiB file, full GET, through Pier against a minimal server
 * piping fs.createReadStream (1 MiB high-water mark) into the response,
 * alternating, 3 rounds; file-system and database stores.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { drain, randomFile } from './lib/data.js';
import { startPier } from './lib/pier.js';
import { mbPerSecond, report, startNode } from './lib/process.js';
import { tusUpload } from './lib/upload.js';

const SIZE = Number(process.env['BENCH_DOWNLOAD_BYTES'] ?? 1024 ** 3);
const ROUNDS = 3;
const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

const timedGet = async (url: string, headers: Record<string, string>): Promise<number> => {
  const started = performance.now();
  const res = await fetch(url, { headers });
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status}`);
  const n = await drain(res);
  if (n !== SIZE) throw new Error(`GET ${url}: ${n} bytes instead of ${SIZE}`);
  return mbPerSecond(n, performance.now() - started);
};

export const benchDownload = async (): Promise<void> => {
  const work = mkdtempSync(join(tmpdir(), 'pier-bench-down-'));
  try {
    const file = join(work, 'big.bin');
    randomFile(file, SIZE);
    const plain = await startNode([here('./baselines/static-server.mjs'), file], /listening (\S+)/);
    try {
      for (const store of ['file-system', 'database'] as const) {
        const pier = await startPier(store);
        try {
          const share = await pier.newShare();
          const headers = { 'Service-Auth': pier.token };
          await tusUpload(file, `${pier.url}/api/v2/sec/upload/${share}/files/tus`, headers);
          const [f] = await pier.files(share);
          const pierRates: number[] = [];
          const plainRates: number[] = [];
          for (let round = 0; round < ROUNDS; round++) {
            pierRates.push(await timedGet(`${pier.url}/api/v2/sec/share/${share}/file/${f!.id}`, headers));
            plainRates.push(await timedGet(plain.match[1]!, {}));
          }
          report(`download (${store} store)`, pierRates, plainRates, pier.peakRssMb());
        } finally {
          await pier.stop();
        }
      }
    } finally {
      await plain.stop();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
};
