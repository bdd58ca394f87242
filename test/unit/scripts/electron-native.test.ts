// The first `npm start` puts better-sqlite3 built for Electron in a folder of its own, with
// better-sqlite3's own prebuild-install: here it runs for real, in a child process, against
// a mirror on loopback (a closed port for the offline case).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureElectronSqlite } from '../../../scripts/electron-native.mjs';
import { startEndpoint } from '../../support/http-endpoint.js';

const repo = join(import.meta.dirname, '..', '..', '..');
const moduleDir = join(repo, 'node_modules', 'better-sqlite3');
const { version } = JSON.parse(readFileSync(join(moduleDir, 'package.json'), 'utf8')) as { version: string };
const nodeBuild = join(moduleDir, 'build', 'Release', 'better_sqlite3.node');

let dir: string;
let buildDir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pier-electron-native-'));
  buildDir = join(dir, '.electron-native', `better-sqlite3-${version}-electron-41.7.1-linux-x64`);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** prebuild-install's environment: better-sqlite3's binaries from `mirror`, its cache in the scratch folder. */
const envFor = (mirror: string): NodeJS.ProcessEnv => ({ ...process.env, npm_config_better_sqlite3_binary_host: mirror, npm_config_cache: join(dir, 'npm-cache'), NO_PROXY: '127.0.0.1' });

/** A prebuilt archive as better-sqlite3 publishes them: build/Release/better_sqlite3.node. */
const prebuiltArchive = (content: string): Buffer => {
  const src = join(dir, 'archive');
  mkdirSync(join(src, 'build', 'Release'), { recursive: true });
  writeFileSync(join(src, 'build', 'Release', 'better_sqlite3.node'), content);
  const r = spawnSync('tar', ['-czf', '-', '-C', src, 'build'], { maxBuffer: 1 << 20 });
  if (r.status !== 0) throw new Error(`tar failed: ${r.stderr.toString()}`);
  return r.stdout;
};

describe('ensureElectronSqlite', () => {
  it.runIf(process.platform === 'linux')("fetches better-sqlite3's prebuilt binary for Electron's ABI into its own folder, once, and leaves node_modules' build alone", async () => {
    const before = statSync(nodeBuild).mtimeMs;
    const archive = prebuiltArchive('built for electron');
    const mirror = await startEndpoint((req, res) => {
      if (req.url === `/v${version}/better-sqlite3-v${version}-electron-v145-linux-x64.tar.gz`) res.writeHead(200).end(archive);
      else res.writeHead(404).end();
    });
    try {
      const options = { moduleDir, buildDir, electronVersion: '41.7.1', platform: 'linux', arch: 'x64', env: envFor(mirror.url) };
      const built = await ensureElectronSqlite(options);
      const binding = join(buildDir, 'build', 'Release', 'better_sqlite3.node');
      expect(built).toEqual({ path: binding });
      expect(readFileSync(binding, 'utf8')).toBe('built for electron');
      expect(mirror.seen.map((r) => r.url)).toEqual([`/v${version}/better-sqlite3-v${version}-electron-v145-linux-x64.tar.gz`]);
      expect(await ensureElectronSqlite(options)).toEqual({ path: binding });
      expect(mirror.seen).toHaveLength(1);
      expect(statSync(nodeBuild).mtimeMs).toBe(before);
    } finally {
      await mirror.stop();
    }
  });

  it('says in one line why, when the download fails, and leaves no folder behind', async () => {
    const r = await ensureElectronSqlite({ moduleDir, buildDir, electronVersion: '41.7.1', platform: 'linux', arch: 'x64', env: envFor('http://127.0.0.1:9') });
    expect(r).toEqual({ reason: expect.stringMatching(/ECONNREFUSED/) });
    expect((r as { reason: string }).reason).not.toContain('\n');
    expect(existsSync(buildDir)).toBe(false);
    expect(existsSync(`${buildDir}.partial`)).toBe(false);
  });
});
