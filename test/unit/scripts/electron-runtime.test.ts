// `npm start` fetches the Electron runtime with the electron package's own installer: here
// that installer runs for real, in a child process, against a mirror on loopback.
import { createHash } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ZipArchive } from 'archiver';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { electronExecutable, ensureElectron } from '../../../scripts/electron-runtime.mjs';
import { startEndpoint } from '../../support/http-endpoint.js';

const repo = join(import.meta.dirname, '..', '..', '..');
const packageDir = join(repo, 'node_modules', 'electron');
const { version } = JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8')) as { version: string };
const artifact = `electron-v${version}-${process.platform}-${process.arch}.zip`;

/** A zip like Electron's, holding only an `electron` executable. */
const fakeElectronZip = async (): Promise<Buffer> => {
  const zip = new ZipArchive({});
  const chunks: Buffer[] = [];
  zip.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise((resolve) => zip.on('end', resolve));
  zip.append('#!/bin/sh\necho electron\n', { name: 'electron', mode: 0o755 });
  await zip.finalize();
  await ended;
  return Buffer.concat(chunks);
};

let dir: string;
let electronDir: string;
let stateFile: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pier-electron-'));
  // a copy of the electron package (without a binary); its installer's own
  // dependencies come from the repository's node_modules through NODE_PATH
  electronDir = join(dir, 'electron');
  await mkdir(electronDir);
  for (const f of ['install.js', 'index.js', 'package.json', 'checksums.json'])
    await copyFile(join(packageDir, f), join(electronDir, f));
  stateFile = join(dir, 'data', 'electron-download.json');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const installerEnv = (mirror: string): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_PATH: join(repo, 'node_modules'),
    ELECTRON_MIRROR: `${mirror}/`,
    electron_config_cache: join(dir, 'cache'),
    electron_use_remote_checksums: '1',
    NO_PROXY: '127.0.0.1',
  };
  delete env.ELECTRON_SKIP_BINARY_DOWNLOAD;
  return env;
};

describe('ensureElectron', () => {
  it('downloads the runtime with the electron installer when it is missing, then finds it installed', async () => {
    const zip = await fakeElectronZip();
    const sums = `${createHash('sha256').update(zip).digest('hex')} *${artifact}\n`;
    const mirror = await startEndpoint((req, res) => {
      if (req.url.endsWith('/SHASUMS256.txt')) res.end(sums);
      else if (req.url.endsWith(`/${artifact}`)) res.end(zip);
      else res.writeHead(404).end();
    });
    try {
      expect(electronExecutable(electronDir)).toBeNull();
      const result = await ensureElectron({ electronDir, stateFile, env: installerEnv(mirror.url) });
      expect(result).toEqual({ path: join(electronDir, 'dist', 'electron') });
      expect(mirror.seen.map((r) => r.url)).toContain(`/v${version}/${artifact}`);
      // once installed, nothing is downloaded again
      const requests = mirror.seen.length;
      expect(await ensureElectron({ electronDir, stateFile, env: installerEnv(mirror.url) })).toEqual(result);
      expect(mirror.seen).toHaveLength(requests);
      await expect(stat(stateFile)).rejects.toMatchObject({ code: 'ENOENT' });
    } finally {
      await mirror.stop();
    }
  });

  it('gives the reason in one line when the download fails, and does not retry before the pause is over', async () => {
    const mirror = await startEndpoint((_req, res) => res.writeHead(404).end());
    try {
      const now = Date.now();
      const env = installerEnv(mirror.url);
      const first = await ensureElectron({ electronDir, stateFile, env, now, retryAfterMs: 60_000 });
      expect(first).toMatchObject({ tried: true });
      expect('reason' in first && first.reason).toMatch(/^its download failed \(HTTPError: Response code 404/);
      expect('reason' in first && first.reason).not.toContain('\n');
      const tried = mirror.seen.length;
      expect(tried).toBeGreaterThan(0);
      const remembered = JSON.parse(await readFile(stateFile, 'utf8')) as { failedAt: number; reason: string };
      expect(remembered).toMatchObject({ failedAt: now });
      expect((await stat(stateFile)).mode & 0o077).toBe(0);

      // within the pause: the installer does not run, the reason says when it will
      const second = await ensureElectron({ electronDir, stateFile, env, now: now + 30_000, retryAfterMs: 60_000 });
      expect(second).toMatchObject({ tried: false });
      expect('reason' in second && second.reason).toContain(`(${remembered.reason}); tried again after 1 min`);
      expect(mirror.seen).toHaveLength(tried);

      // after it: tried again
      const third = await ensureElectron({ electronDir, stateFile, env, now: now + 61_000, retryAfterMs: 60_000 });
      expect(third).toMatchObject({ tried: true });
      expect(mirror.seen.length).toBeGreaterThan(tried);
    } finally {
      await mirror.stop();
    }
  });

  it('does not download when ELECTRON_SKIP_BINARY_DOWNLOAD is set', async () => {
    const mirror = await startEndpoint((_req, res) => res.writeHead(404).end());
    try {
      const env = { ...installerEnv(mirror.url), ELECTRON_SKIP_BINARY_DOWNLOAD: '1' };
      expect(await ensureElectron({ electronDir, stateFile, env })).toEqual({
        reason: 'ELECTRON_SKIP_BINARY_DOWNLOAD is set, so it is not downloaded',
        tried: false,
      });
      expect(mirror.seen).toHaveLength(0);
    } finally {
      await mirror.stop();
    }
  });
});
