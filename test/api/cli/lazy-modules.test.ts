// What the server's command line loads, and when. A default server (file
// system or database store, SQLite, no mail, no player) loads none of the AWS
// SDK, sharp, nodemailer, the network database drivers and yaml at start:
// tens of MB of memory for parts it never uses.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loginFirstAdmin, run, running, projectRoot, type CliRun } from '../../support/cli-run.js';
import { recordLoads } from '../../support/load-record.js';

const cli = join(projectRoot, 'dist/server/cli.js');

const heavy = ['@aws-sdk/client-s3', 'sharp', 'nodemailer', 'pg', 'mysql2', 'yaml'];

describe('the server started from its command line', () => {
  let dir: string;
  let r: CliRun | undefined;
  beforeAll(() => {
    if (!existsSync(cli)) throw new Error('dist/server/cli.js is missing: run `npm run build:server` (npm test does).');
  });
  afterEach(async () => {
    await r?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Starts the server with `env` and a record of what it loads; the URL and the record's lines so far. */
  const startRecorded = async (env: Record<string, string> = {}): Promise<{ url: string; loaded: () => string[] }> => {
    dir = mkdtempSync(join(tmpdir(), 'pier-loads-'));
    const list = join(dir, 'loaded.txt');
    r = run(process.execPath, ['--import', recordLoads(dir, list), cli], {
      SERVICE_DATA_DIR: join(dir, 'data'),
      SERVICE_BIND_PORT: '0',
      SERVICE_BIND_ADDRESS: '127.0.0.1',
      ...env,
    });
    const url = await running(r);
    return { url, loaded: () => readFileSync(list, 'utf8').split('\n') };
  };

  it.each(['filesystem', 'database'])('does not load modules a default configuration with the %s store does not use, after serving a login', async (store) => {
    const { url, loaded } = await startRecorded({
      SERVICE_BACKEND_FILES_DEFAULT_STORE: store,
      SERVICE_BACKEND_FILES_STORES_FILESYSTEM_ENABLED: String(store === 'filesystem'),
    });
    const login = await loginFirstAdmin(r!, url);
    expect(login.status).toBe(200);
    const lines = loaded();
    // the hook sees every module: the server's own and the packages it does use
    expect(lines.some((u) => u.endsWith('/dist/server/cli.js'))).toBe(true);
    expect(lines.some((u) => u.includes('/node_modules/kysely/'))).toBe(true);
    const packages = heavy.filter((name) => lines.some((u) => u.includes(`/node_modules/${name}/`)));
    expect(packages).toEqual([]);
  });

  it('turns young collections on without a warning about them', async () => {
    await startRecorded();
    expect(r!.out() + r!.err()).not.toMatch(/garbage collection on demand/);
  });
});
