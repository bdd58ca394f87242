/** Upload contenders that check what arrived and remove it after each trial. */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { startBareTus, startSink } from './anchors.js';
import type { Work } from './data.js';
import { startPier, type PierProcess } from './pier.js';
import type { Started } from './process.js';
import type { Contender, Transfer } from './trials.js';

const check = (what: string, sizes: number[], count: number, size: number): void => {
  if (sizes.length !== count || sizes.some((s) => s !== size)) {
    throw new Error(`${what}: expected ${count} file(s) of ${size} bytes, found ${sizes.length} (${[...new Set(sizes)].join(', ')} bytes)`);
  }
};

/** An anchor that stores uploads as files of `dir` (tus' `.json` info files aside). */
const dirContender = (name: string, pid: number, dir: string, run: () => Promise<Transfer>, count: number, size: number): Contender => ({
  name,
  pid,
  run,
  async cleanup() {
    const names = readdirSync(dir);
    check(name, names.filter((n) => !n.endsWith('.json')).map((n) => statSync(join(dir, n)).size), count, size);
    for (const n of names) rmSync(join(dir, n), { force: true });
  },
});

/** Pier: a new share for every trial, checked and deleted afterwards. */
export const pierContender = (
  name: string,
  pier: PierProcess,
  run: (url: string, headers: Record<string, string>) => Promise<Transfer>,
  count: number,
  size: number,
): Contender => {
  let share = '';
  return {
    name,
    pid: pier.pid,
    prepare: async () => {
      share = await pier.newShare();
    },
    run: () => run(pier.tusUrl(share), { 'Service-Auth': pier.token }),
    async cleanup() {
      check(name, (await pier.files(share)).map((f) => f.size), count, size);
      await pier.deleteShare(share);
    },
  };
};

/** The client of an upload scenario: a PUT to the raw sink, tus to the others. */
export type UploadClient = (protocol: 'tus' | 'put', url: string, headers?: Record<string, string>) => Promise<Transfer>;

/**
 * The servers every upload scenario compares, each in its own process: the raw
 * sink, bare @tus/server and Pier with the file-system and the database store.
 * `contenders` puts them in a round with one client; `stop` ends them all.
 */
export const startUploadServers = async (work: Work, prefix: string) => {
  const started: Started[] = [];
  const start = async <T extends Started>(p: Promise<T>): Promise<T> => {
    const s = await p;
    started.push(s);
    return s;
  };
  const stop = () => Promise.all(started.map((s) => s.stop())).then(() => undefined);
  try {
    const sinkDir = mkdtempSync(join(work.dir, `${prefix}sink-`));
    const bareDir = mkdtempSync(join(work.dir, `${prefix}bare-tus-`));
    const sink = await start(startSink(sinkDir));
    const bare = await start(startBareTus(bareDir));
    const fs = await start(startPier('file-system', work.dir));
    const db = await start(startPier('database', work.dir));
    const contenders = (client: UploadClient, count: number, size: number): Contender[] => [
      dirContender('raw sink', sink.pid, sinkDir, () => client('put', sink.url), count, size),
      dirContender('bare @tus/server', bare.pid, bareDir, () => client('tus', bare.url), count, size),
      pierContender('Pier fs', fs, (url, headers) => client('tus', url, headers), count, size),
      pierContender('Pier db', db, (url, headers) => client('tus', url, headers), count, size),
    ];
    return { fs, contenders, stop };
  } catch (e) {
    await stop();
    throw e;
  }
};
