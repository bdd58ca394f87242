// The server's command line sets glibc's malloc limits before the server's
// modules load: arenas that threads make before the limits are set stay.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { run, running, projectRoot, type CliRun } from '../../support/cli-run.js';
import { recordLoads } from '../../support/load-record.js';

const cli = join(projectRoot, 'dist/server/cli.js');

describe('the server process started from its command line', () => {
  let dir: string;
  let r: CliRun | undefined;
  beforeAll(() => {
    if (!existsSync(cli)) throw new Error('dist/server/cli.js is missing: run `npm run build:server` (npm test does).');
  });
  afterEach(async () => {
    await r?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("opens the malloc-tuning addon before it loads the server's modules, and runs without a warning about it", async () => {
    dir = mkdtempSync(join(tmpdir(), 'pier-memory-'));
    const list = join(dir, 'loaded.txt');
    r = run(process.execPath, ['--import', recordLoads(dir, list), cli], {
      SERVICE_DATA_DIR: join(dir, 'data'),
      SERVICE_BIND_PORT: '0',
      SERVICE_BIND_ADDRESS: '127.0.0.1',
    });
    await running(r);
    const loaded = readFileSync(list, 'utf8').split('\n');
    const addon = loaded.findIndex((l) => l.startsWith('dlopen ') && l.endsWith('/malloc_tuning.node'));
    const server = loaded.findIndex((l) => l.endsWith('/dist/server/index.js'));
    const sqlite = loaded.findIndex((l) => l.startsWith('dlopen ') && l.endsWith('/better_sqlite3.node'));
    expect(addon).toBeGreaterThanOrEqual(0);
    expect(server).toBeGreaterThan(addon);
    expect(sqlite).toBeGreaterThan(addon);
    expect(r.out() + r.err()).not.toMatch(/malloc-tuning|garbage collection on demand/);
  });
});
