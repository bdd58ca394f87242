/**
 * load: one Pier server (file-system store) under 50 concurrent downloads and
 * 10 concurrent tus uploads for BENCH_LOAD_SECONDS (60 s), while a client
 * searches shares. Reports throughput, the p99 latency of
 * `GET /api/v2/sec/share/search`, the error count and the server's peak RSS
 * during the load.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { drain, type Work } from './lib/data.js';
import { startPier } from './lib/pier.js';
import { peakRssMb, resetPeak } from './lib/proc.js';
import { settings } from './lib/settings.js';
import { tusUpload } from './lib/upload.js';

const SECONDS = settings.loadSeconds;
const DOWNLOADERS = 50;
const UPLOADERS = 10;
const DOWNLOAD_BYTES = 32 * 1024 * 1024;
const UPLOAD_BYTES = 8 * 1024 * 1024;

export interface LoadResult {
  seconds: number;
  downloadMiBs: number;
  uploadMiBs: number;
  searchP99: number;
  errors: number;
  rssMb: number;
}

export const benchLoad = async (work: Work): Promise<LoadResult> => {
  console.log(`\nload: ${DOWNLOADERS} downloads of 32 MiB and ${UPLOADERS} tus uploads of 8 MiB at once for ${SECONDS} s, Pier fs`);
  // the clients stand for many guests; from one address their connections (downloads, tus-js-client's
  // and fetch's keep-alive pools) would exceed `limits.connections-per-address` and be closed
  const pier = await startPier('file-system', work.dir, { 'connections-per-address': 1000 });
  try {
    const headers = { 'Service-Auth': pier.token };
    const source = work.file('load-download.bin', DOWNLOAD_BYTES);
    const upSource = work.file('load-upload.bin', UPLOAD_BYTES);
    const share = await pier.newShare();
    await tusUpload(source, `${pier.url}/api/v2/sec/upload/${share}/files/tus`, headers);
    const [file] = await pier.files(share);

    const until = Date.now() + SECONDS * 1000;
    let downloaded = 0;
    let uploaded = 0;
    let errors = 0;
    const errorKinds = new Map<string, number>();
    const fail = (what: string) => {
      errors++;
      errorKinds.set(what, (errorKinds.get(what) ?? 0) + 1);
    };
    const latencies: number[] = [];

    const downloader = async () => {
      while (Date.now() < until) {
        try {
          const res = await fetch(`${pier.url}/api/v2/sec/share/${share}/file/${file!.id}`, { headers });
          if (res.status !== 200) fail(`download ${res.status}`);
          const n = await drain(res);
          if (n !== DOWNLOAD_BYTES) fail('download short');
          downloaded += n;
        } catch (e) {
          fail(`download ${String(e)}${e instanceof Error && e.cause ? ` (${String(e.cause)})` : ''}`);
        }
      }
    };
    const uploader = async () => {
      const mine = await pier.newShare();
      while (Date.now() < until) {
        try {
          await tusUpload(upSource, `${pier.url}/api/v2/sec/upload/${mine}/files/tus`, headers);
          uploaded += UPLOAD_BYTES;
          // keep the disk bounded: remove what was uploaded
          for (const f of await pier.files(mine)) {
            const del = await fetch(`${pier.url}/api/v2/sec/share/${mine}/file/${f.id}`, { method: 'DELETE', headers });
            if (del.status !== 200) fail(`delete ${del.status}`);
          }
        } catch (e) {
          fail(`upload ${String(e)}`);
        }
      }
    };
    const searcher = async () => {
      const out = await new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, [fileURLToPath(new URL('./lib/searcher.mjs', import.meta.url)), pier.url, pier.token, String(until)]);
        let text = '';
        child.stdout.on('data', (d: Buffer) => (text += d.toString()));
        child.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`searcher exited with ${code}`))));
      });
      const result = JSON.parse(out) as { latencies: number[]; errors: number };
      latencies.push(...result.latencies);
      for (let i = 0; i < result.errors; i++) fail('search');
    };

    resetPeak(pier.pid);
    const started = performance.now();
    await Promise.all([
      ...Array.from({ length: DOWNLOADERS }, downloader),
      ...Array.from({ length: UPLOADERS }, uploader),
      searcher(),
    ]);
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((x, y) => x - y);
    const p99 = latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))] ?? NaN;
    const mb = (n: number) => n / (1024 * 1024);
    const result = {
      seconds,
      downloadMiBs: mb(downloaded) / seconds,
      uploadMiBs: mb(uploaded) / seconds,
      searchP99: p99,
      errors,
      rssMb: peakRssMb(pier.pid),
    };
    console.log(
      `  download ${result.downloadMiBs.toFixed(0)} MiB/s, upload ${result.uploadMiBs.toFixed(0)} MiB/s, ` +
        `search p99 ${p99.toFixed(1)} ms (${latencies.length} requests), errors ${errors}, peak RSS ${result.rssMb.toFixed(0)} MB`,
    );
    if (errors > 0) console.log(`  errors: ${JSON.stringify(Object.fromEntries(errorKinds))}`);
    return result;
  } finally {
    await pier.stop();
  }
};
