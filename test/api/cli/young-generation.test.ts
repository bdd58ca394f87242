// `npm run serve` starts the server with a small young generation: V8's
// default lets it grow to 16 MiB per semi-space, held for the process's life.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loginFirstAdmin, npmServe, projectRoot, running, type CliRun } from '../../support/cli-run.js';

/** A module for `--import` that writes the largest young-generation size seen, every 20 ms, to `file`. */
const recordYoungGeneration = (dir: string, file: string): string => {
  const path = join(dir, 'young.mjs');
  writeFileSync(
    path,
    `import { writeFileSync } from 'node:fs';
import { getHeapSpaceStatistics } from 'node:v8';
let max = 0;
setInterval(() => {
  const size = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
  if (size > max) writeFileSync(${JSON.stringify(file)}, String((max = size)));
}, 20).unref();
`,
  );
  return pathToFileURL(path).href;
};

describe('the server process started by npm run serve', () => {
  let dir: string;
  let r: CliRun | undefined;
  beforeAll(() => {
    if (!existsSync(join(projectRoot, 'dist/server/cli.js'))) throw new Error('dist/server/cli.js is missing: run `npm run build:server` (npm test does).');
  });
  afterEach(async () => {
    await r?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps its young generation at a few MiB through start-up and 1000 API requests', async () => {
    dir = mkdtempSync(join(tmpdir(), 'pier-young-'));
    const record = join(dir, 'young.txt');
    r = npmServe([], {
      NODE_OPTIONS: `--import ${recordYoungGeneration(dir, record)}`,
      SERVICE_DATA_DIR: join(dir, 'data'),
      SERVICE_BIND_PORT: '0',
      SERVICE_BIND_ADDRESS: '127.0.0.1',
    });
    const url = await running(r);
    const login = await loginFirstAdmin(r, url);
    const { token } = (await login.json()) as { token: string };
    for (let i = 0; i < 100; i++) {
      const answers = await Promise.all(Array.from({ length: 10 }, () => fetch(`${url}/api/v2/sec/share/search`, { headers: { 'Service-Auth': token } })));
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
      await Promise.all(answers.map((a) => a.arrayBuffer()));
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    const largest = Number(readFileSync(record, 'utf8'));
    // two semi-spaces of 1 MiB; V8's default grows to 2 × 16 MiB
    expect(largest).toBeGreaterThan(0);
    expect(largest).toBeLessThanOrEqual(4 * 1024 * 1024);
  });
});
