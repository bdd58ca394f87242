// `npm run serve` starts the server with a small young generation (V8's
// default lets it grow to 16 MiB per semi-space, held for the process's life).
// The server's command line turns young collections on, so streams of
// buffers from outside V8's heap are freed as they go, with or without flags.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loginFirstAdmin, npmServe, projectRoot, run, running, type CliRun } from '../../support/cli-run.js';

/**
 * Starts `npm run serve`, or with `plain` the server's command line under
 * `node` without any flag (default configuration, a new data folder), with a
 * module for `--import` that samples `measure` every 20 ms and keeps the
 * largest value in a file; `largest()` reads it.
 */
const serveMeasuring = (dir: string, measure: string, plain = false): { r: CliRun; largest: () => number } => {
  const file = join(dir, 'largest.txt');
  const module = join(dir, 'measure.mjs');
  writeFileSync(
    module,
    `import { writeFileSync } from 'node:fs';
import { getHeapSpaceStatistics } from 'node:v8';
let max = 0;
setInterval(() => {
  const value = ${measure};
  if (value > max) writeFileSync(${JSON.stringify(file)}, String((max = value)));
}, 20).unref();
`,
  );
  const env = {
    NODE_OPTIONS: `--import ${pathToFileURL(module).href}`,
    SERVICE_DATA_DIR: join(dir, 'data'),
    SERVICE_BIND_PORT: '0',
    SERVICE_BIND_ADDRESS: '127.0.0.1',
  };
  const r = plain ? run(process.execPath, [join(projectRoot, 'dist/server/cli.js')], env) : npmServe([], env);
  return { r, largest: () => Number(readFileSync(file, 'utf8')) };
};

const MiB = 1024 * 1024;

describe('the server process', () => {
  let dir: string;
  let r: CliRun | undefined;
  beforeAll(() => {
    if (!existsSync(join(projectRoot, 'dist/server/cli.js'))) throw new Error('dist/server/cli.js is missing: run `npm run build:server` (npm test does).');
  });
  afterEach(async () => {
    await r?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('started by npm run serve, keeps its young generation at a few MiB through start-up and 1000 API requests', async () => {
    dir = mkdtempSync(join(tmpdir(), 'pier-young-'));
    const serving = serveMeasuring(dir, "getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size");
    r = serving.r;
    const url = await running(r);
    const login = await loginFirstAdmin(r, url);
    const { token } = (await login.json()) as { token: string };
    for (let i = 0; i < 100; i++) {
      const answers = await Promise.all(Array.from({ length: 10 }, () => fetch(`${url}/api/v2/sec/share/search`, { headers: { 'Service-Auth': token } })));
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
      await Promise.all(answers.map((a) => a.arrayBuffer()));
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    const largest = serving.largest();
    // two semi-spaces of 1 MiB; V8's default grows to 2 × 16 MiB
    expect(largest).toBeGreaterThan(0);
    expect(largest).toBeLessThanOrEqual(4 * 1024 * 1024);
  });

  it.each([
    ['npm run serve', false],
    ['node without any flag', true],
  ])('frees the buffers of upload bodies and database rows as it goes, instead of letting tens of MB pile up (%s)', async (_how, plain) => {
    dir = mkdtempSync(join(tmpdir(), 'pier-young-'));
    // the default configuration: file contents go into the database
    const serving = serveMeasuring(dir, 'process.memoryUsage().arrayBuffers', plain);
    r = serving.r;
    const url = await running(r);
    const { token } = (await (await loginFirstAdmin(r, url)).json()) as { token: string };
    const auth = { 'Service-Auth': token };
    const share = (await (
      await fetch(`${url}/api/v2/sec/upload/new`, { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ validity: 86_400_000, maxViews: 10 }) })
    ).json()) as { id: string };
    const size = 96 * MiB;
    const created = await fetch(`${url}/api/v2/sec/upload/${share.id}/files/tus`, {
      method: 'POST',
      headers: { ...auth, 'Tus-Resumable': '1.0.0', 'Upload-Length': String(size), 'Service-File-Name': 'big.bin' },
    });
    expect(created.status).toBe(201);
    const location = new URL(created.headers.get('location')!, url).href;
    const piece = Buffer.alloc(8 * MiB, 7);
    for (let offset = 0; offset < size; offset += piece.length) {
      const patched = await fetch(location, {
        method: 'PATCH',
        headers: { ...auth, 'Tus-Resumable': '1.0.0', 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' },
        body: piece,
      });
      expect(patched.status).toBe(204);
    }
    const { files } = (await (await fetch(`${url}/api/v2/sec/share/${share.id}`, { headers: auth })).json()) as { files: { id: string }[] };
    for (let i = 0; i < 2; i++) {
      const got = await fetch(`${url}/api/v2/sec/share/${share.id}/file/${files[0]!.id}`, { headers: auth });
      expect((await got.arrayBuffer()).byteLength).toBe(size);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    const most = serving.largest();
    // without young collections dead buffers piled up to 47-55 MB; with them about 26 MB were seen
    expect(most).toBeGreaterThan(MiB);
    expect(most).toBeLessThan(36 * MiB);
  });
});
