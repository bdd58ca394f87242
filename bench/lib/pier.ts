import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_MEMORY_ENV, SERVER_NODE_FLAGS } from '../../server/process/flags.js';
import { startNode, type Started } from './process.js';
import { settings } from './settings.js';

const cli = fileURLToPath(new URL('../../dist/server/cli.js', import.meta.url));

export type PierStore = 'file-system' | 'database';

export interface PierProcess extends Started {
  url: string;
  token: string;
  dataDir: string;
  /** a new, empty share; returns its id */
  newShare(): Promise<string>;
  /** removes a share and its files */
  deleteShare(shareId: string): Promise<void>;
  /** the files of a share: id, name, size */
  files(shareId: string): Promise<Array<{ id: string; filename: string; size: number; storedSize: number }>>;
  /** the tus endpoint of a share */
  tusUrl(shareId: string): string;
}

/**
 * Pier from `dist/` in its own process, started as `npm run serve` starts it
 * (with its Node flags and memory environment), with the file-system or the database
 * (SQLite) store and otherwise its defaults (checksums included) apart from
 * rate and size limits, the given `limits` and `more`. With
 * `BENCH_PROFILE=<dir>` it runs under `node --cpu-prof` and writes a profile
 * there when stopped.
 */
export const startPier = async (
  store: PierStore,
  under = tmpdir(),
  limits: Record<string, number> = {},
  /** more `service.restserver` settings (the gateway's `player`) */
  more: Record<string, unknown> = {},
): Promise<PierProcess> => {
  const dataDir = mkdtempSync(join(under, `pier-${store}-`));
  const room = Math.max(4 * 1024 ** 3, 2 * settings.size, 2 * settings.zipFiles * settings.zipFileSize, 2 * settings.smallFiles * settings.smallSize);
  const config = {
    service: {
      restserver: {
        'data-dir': dataDir,
        bind: { address: '127.0.0.1', port: 0 },
        logging: { format: 'Json', 'minimum-level': 'Warn', levels: { pier: 'Warn' } },
        'rate-limit': { enabled: false },
        limits: { 'files-per-share': Math.max(1000, settings.smallFiles), ...limits },
        backend: {
          share: { 'max-size': String(room), 'zip-max-size': String(room) },
          files: {
            'default-store': store === 'database' ? 'database' : 'filesystem',
            stores: { filesystem: { enabled: store === 'file-system', directory: join(dataDir, 'received') } },
          },
        },
        ...more,
      },
    },
  };
  const file = join(dataDir, 'bench.json');
  writeFileSync(file, JSON.stringify(config));
  const node: string[] = [...SERVER_NODE_FLAGS];
  if (settings.profileDir) {
    mkdirSync(settings.profileDir, { recursive: true });
    node.push('--cpu-prof', `--cpu-prof-dir=${settings.profileDir}`, `--cpu-prof-name=pier-${store}-${Date.now()}.cpuprofile`);
  }
  const p = await startNode([...node, cli, file], /Pier is running at (http:\/\/\S+)\/app/, { ...SERVER_MEMORY_ENV });
  const url = p.match[1]!;
  const password = /password: +(\S+)/.exec(p.output())![1]!;
  const login = await fetch(`${url}/api/v2/open/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: 'admin', password }),
  });
  const { token } = (await login.json()) as { token: string };
  const headers = { 'Service-Auth': token, 'content-type': 'application/json' };
  return {
    ...p,
    url,
    token,
    dataDir,
    async newShare() {
      const res = await fetch(`${url}/api/v2/sec/upload/new`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: 'bench', validity: 86_400_000, maxViews: 1000, description: null, password: null }),
      });
      const body = (await res.json()) as { success: boolean; id: string; message: string };
      if (!body.success) throw new Error(body.message);
      return body.id;
    },
    async deleteShare(shareId) {
      const res = await fetch(`${url}/api/v2/sec/share/${shareId}`, { method: 'DELETE', headers });
      if (res.status !== 200) throw new Error(`DELETE share: ${res.status} ${await res.text()}`);
    },
    async files(shareId) {
      const res = await fetch(`${url}/api/v2/sec/share/${shareId}`, { headers });
      return ((await res.json()) as { files: Array<{ id: string; filename: string; size: number; storedSize: number }> }).files;
    },
    tusUrl: (shareId) => `${url}/api/v2/sec/upload/${shareId}/files/tus`,
    async stop() {
      await p.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
};
