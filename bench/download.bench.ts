/**
 * download: the file of BENCH_SIZE (1 GiB) with curl into /dev/null from
 * nginx (sendfile), a plain Node server (1 MiB reads), and Pier with the
 * file-system and the database store. Then ranges: 16 requests of 1/32 of the
 * file each, spread over it, in one curl over one connection, from nginx and
 * both Pier stores.
 */
import { basename, dirname } from 'node:path';
import { NGINX_HINT, startNginx, startPlainFile, type Anchor } from './lib/anchors.js';
import { curl, uploadClient } from './lib/clients.js';
import type { Work } from './lib/data.js';
import { startPier, type PierProcess } from './lib/pier.js';
import type { Started } from './lib/process.js';
import { formatSize, settings } from './lib/settings.js';
import { runRounds, type Contender, type Scenario } from './lib/trials.js';

const RANGES = 16;

/** Uploads `file` into a new share; returns the URL of its download. */
const stored = async (pier: PierProcess, file: string): Promise<string> => {
  const share = await pier.newShare();
  const headers = { 'Service-Auth': pier.token };
  await uploadClient({ protocol: 'tus', url: pier.tusUrl(share), headers, file, chunk: settings.chunk });
  const [f] = await pier.files(share);
  return `${pier.url}/api/v2/sec/share/${share}/file/${f!.id}`;
};

export const benchDownload = async (work: Work): Promise<{ full: Scenario; ranges: Scenario }> => {
  const { size } = settings;
  const file = work.file('big.bin', size);
  const started: Started[] = [];
  try {
    const nginx = await startNginx(dirname(file), work.dir);
    if (nginx) started.push(nginx);
    else console.log(NGINX_HINT);
    const plain = await startPlainFile(file);
    started.push(plain);
    const fs = await startPier('file-system', work.dir);
    started.push(fs);
    const db = await startPier('database', work.dir);
    started.push(db);
    const fsUrl = await stored(fs, file);
    const dbUrl = await stored(db, file);
    const auth = (p: PierProcess) => ({ 'Service-Auth': p.token });

    const get = (name: string, server: Anchor | PierProcess | undefined, url: string, headers: Record<string, string> = {}): Contender => ({
      name,
      pid: server?.pid,
      run: () => curl(url, headers, { bytes: size }),
    });
    const nginxUrl = nginx && `${nginx.url}/${basename(file)}`;
    const full = await runRounds(
      `download: ${formatSize(size)} with curl into /dev/null`,
      'MiB/s',
      [
        get('nginx sendfile', nginx, nginxUrl ?? ''),
        get('plain Node', plain, plain.url),
        get('Pier fs', fs, fsUrl, auth(fs)),
        get('Pier db', db, dbUrl, auth(db)),
      ],
      settings.rounds,
    );

    const part = Math.floor(size / (2 * RANGES));
    const ranges = Array.from({ length: RANGES }, (_, i): [number, number] => {
      const first = Math.floor((i * size) / RANGES);
      return [first, first + part - 1];
    });
    const ranged = (name: string, server: Anchor | PierProcess | undefined, url: string, headers: Record<string, string> = {}): Contender => ({
      name,
      pid: server?.pid,
      run: () => curl(url, headers, { ranges }),
    });
    const rangeScenario = await runRounds(
      `download ranges: ${RANGES} ranges of ${formatSize(part)} spread over the file, one curl, one connection`,
      'MiB/s',
      [ranged('nginx sendfile', nginx, nginxUrl ?? ''), ranged('Pier fs', fs, fsUrl, auth(fs)), ranged('Pier db', db, dbUrl, auth(db))],
      settings.rounds,
    );
    return { full, ranges: rangeScenario };
  } finally {
    await Promise.all(started.map((s) => s.stop()));
  }
};
