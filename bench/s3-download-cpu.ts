/**
 * CPU seconds per GiB that a server spends on reading a file from the S3
 * store, with s3rver in another process (its own CPU is not counted):
 *
 *   node --import tsx bench/s3-download-cpu.ts [MiB=256] [object-size]
 *
 * Without `object-size` the store writes objects of its own size (8 MiB);
 * `512K` is what it wrote before, when it took `backend.share.chunk-size`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../server/common/log.js';
import { parseSize } from '../server/common/sizes.js';
import { createS3Store } from '../server/core/stores/s3.store.js';

const mib = Number(process.argv[2] ?? 256);
const objectSize = process.argv[3] === undefined ? undefined : parseSize(process.argv[3]);
const dir = mkdtempSync(join(tmpdir(), 'pier-s3-cpu-'));
const child = spawn(process.execPath, ['-e', `
  const S3rver = require('s3rver');
  new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: ${JSON.stringify(dir)} }).run().then((a) => console.log('PORT ' + a.port));
`], { stdio: ['ignore', 'pipe', 'inherit'] });
try {
  const port = await new Promise<number>((resolve) => child.stdout!.on('data', (d: Buffer) => { const m = /PORT (\d+)/.exec(String(d)); if (m) resolve(Number(m[1])); }));
  const store = await createS3Store({ id: 's3', endpoint: `http://127.0.0.1:${port}`, region: 'us-east-1', accessKey: 'S3RVER', secretKey: 'S3RVER', bucket: 'cpu', ...(objectSize ? { objectSize } : {}), log: silentLogger });
  const ref = { fileId: 'f', location: await store.create('f', { shareId: 's', shareName: 's', fileName: 'f' }) };
  const piece = Buffer.alloc(1024 * 1024, 7);
  async function* source(): AsyncGenerator<Buffer> {
    for (let i = 0; i < mib; i++) yield piece;
  }
  await store.append(ref, 0, source(), mib * 1024 * 1024);
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  let n = 0;
  for await (const c of store.read(ref) as AsyncIterable<Buffer>) n += c.length;
  const used = process.cpuUsage(cpu);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const perGiB = (1024 / mib) * ((used.user + used.system) / 1e6);
  console.log(`read ${n / 1024 / 1024} MiB in ${seconds.toFixed(2)} s: ${perGiB.toFixed(2)} CPU s per GiB, ${((n / 1024 / 1024) / seconds).toFixed(0)} MiB/s (objects of ${process.argv[3] ?? '8M'})`);
  await store.close?.();
} finally {
  child.kill();
  rmSync(dir, { recursive: true, force: true });
}
