// A default server (file system or database store, SQLite, no mail, no player)
// loads none of the AWS SDK, sharp, nodemailer, the network database
// drivers and yaml at start: tens of MB of memory for parts it never uses.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loginFirstAdmin, run, running, projectRoot, type CliRun } from '../../support/cli-run.js';
import { recordLoads } from '../../support/load-record.js';

const cli = join(projectRoot, 'dist/server/cli.js');

const heavy = ['@aws-sdk/client-s3', 'sharp', 'nodemailer', 'pg', 'mysql2', 'yaml'];

describe('modules a configuration does not use', () => {
  let dir: string;
  let r: CliRun | undefined;
  beforeAll(() => {
    if (!existsSync(cli)) throw new Error('dist/server/cli.js is missing: run `npm run build:server` (npm test does).');
  });
  afterEach(async () => {
    await r?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(['filesystem', 'database'])('are not loaded by a started default server with the %s store that served a login', async (store) => {
    dir = mkdtempSync(join(tmpdir(), 'pier-lazy-'));
    const list = join(dir, 'loaded.txt');
    r = run(process.execPath, ['--import', recordLoads(dir, list), cli], {
      SERVICE_DATA_DIR: join(dir, 'data'),
      SERVICE_BIND_PORT: '0',
      SERVICE_BIND_ADDRESS: '127.0.0.1',
      SERVICE_BACKEND_FILES_DEFAULT_STORE: store,
      SERVICE_BACKEND_FILES_STORES_FILESYSTEM_ENABLED: String(store === 'filesystem'),
    });
    const url = await running(r);
    const login = await loginFirstAdmin(r, url);
    expect(login.status).toBe(200);
    const loaded = readFileSync(list, 'utf8').split('\n');
    // the hook sees every module: the server's own and the packages it does use
    expect(loaded.some((u) => u.endsWith('/dist/server/cli.js'))).toBe(true);
    expect(loaded.some((u) => u.includes('/node_modules/kysely/'))).toBe(true);
    const packages = heavy.filter((name) => loaded.some((u) => u.includes(`/node_modules/${name}/`)));
    expect(packages).toEqual([]);
  });
});
