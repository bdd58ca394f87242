/**
 * zip: 20 files of 50 MiB of random bytes, uploaded as
 * application/octet-stream; Pier's ZIP route against archiver storing the same
 * files (no compression) into a discarding stream, alternating, 3 rounds.
 */
import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ZipArchive } from 'archiver';
import { drain, randomFile } from './lib/data.js';
import { startPier } from './lib/pier.js';
import { mbPerSecond, report } from './lib/process.js';
import { tusUpload } from './lib/upload.js';

const FILES = 20;
const EACH = Number(process.env['BENCH_ZIP_FILE_BYTES'] ?? 50 * 1024 * 1024);
const ROUNDS = 3;

const archiverStore = async (files: string[]): Promise<number> => {
  const started = performance.now();
  const zip = new ZipArchive({ store: true });
  let n = 0;
  const sink = new Writable({
    write(chunk: Buffer, _e, done) {
      n += chunk.length;
      done();
    },
  });
  const done = pipeline(zip, sink);
  for (const f of files) zip.append(createReadStream(f), { name: f.split('/').pop()! });
  await zip.finalize();
  await done;
  return mbPerSecond(n, performance.now() - started);
};

export const benchZip = async (): Promise<void> => {
  const work = mkdtempSync(join(tmpdir(), 'pier-bench-zip-'));
  try {
    const files = Array.from({ length: FILES }, (_, i) => join(work, `random-${i}.bin`));
    for (const f of files) randomFile(f, EACH);
    const pier = await startPier('file-system');
    try {
      const share = await pier.newShare();
      const headers = { 'Service-Auth': pier.token };
      for (const f of files) await tusUpload(f, `${pier.url}/api/v2/sec/upload/${share}/files/tus`, headers);
      const pierRates: number[] = [];
      const baseRates: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const started = performance.now();
        const res = await fetch(`${pier.url}/api/v2/sec/share/${share}/zip`, { headers });
        if (res.status !== 200) throw new Error(`zip: ${res.status}`);
        const n = await drain(res);
        if (n < FILES * EACH) throw new Error(`zip: only ${n} bytes`);
        pierRates.push(mbPerSecond(n, performance.now() - started));
        baseRates.push(await archiverStore(files));
      }
      report('zip', pierRates, baseRates, pier.peakRssMb());
    } finally {
      await pier.stop();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
};
