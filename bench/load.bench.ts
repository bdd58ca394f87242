/**
 * load: one Pier server (file-system store) under 50 concurrent downloads and
 * 10 concurrent tus uploads for 60 s, while a client searches shares. Prints
 * throughput, the p99 latency of `GET /api/v2/sec/share/search`, the error
 * count (target 0) and the server's peak RSS (target under 400 MB).
 * `npm run bench:load` (needs `dist/`, built by the script).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { drain, randomFile } from './lib/data.js';
import { startPier } from './lib/pier.js';
import { tusUpload } from './lib/upload.js';

const SECONDS = Number(process.env['BENCH_LOAD_SECONDS'] ?? 60);
const DOWNLOADERS = 50;
const UPLOADERS = 10;
const DOWNLOAD_BYTES = 32 * 1024 * 1024;
const UPLOAD_BYTES = 8 * 1024 * 1024;

const work = mkdtempSync(join(tmpdir(), 'pier-bench-load-'));
const pier = await startPier('file-system');
try {
  const headers = { 'Service-Auth': pier.token };
  const source = join(work, 'download.bin');
  randomFile(source, DOWNLOAD_BYTES);
  const upSource = join(work, 'upload.bin');
  randomFile(upSource, UPLOAD_BYTES);
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
        fail(`download ${String(e)}`);
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
  console.log(
    `load: download ${(mb(downloaded) / seconds).toFixed(0)} MB/s, upload ${(mb(uploaded) / seconds).toFixed(0)} MB/s, ` +
      `search p99 ${p99.toFixed(1)} ms (${latencies.length} requests), errors ${errors}, peak RSS ${pier.peakRssMb().toFixed(0)} MB`,
  );
  if (errors > 0) console.log(`errors: ${JSON.stringify(Object.fromEntries(errorKinds))}`);
} finally {
  await pier.stop();
  rmSync(work, { recursive: true, force: true });
}
