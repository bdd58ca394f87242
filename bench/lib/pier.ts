import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startNode, type Started } from './process.js';

const cli = fileURLToPath(new URL('../../dist/server/cli.js', import.meta.url));

export interface PierProcess extends Started {
  url: string;
  token: string;
  dataDir: string;
  /** a new, empty share; returns its id */
  newShare(): Promise<string>;
  /** the files of a share: id, name, size */
  files(shareId: string): Promise<Array<{ id: string; filename: string; size: number; storedSize: number }>>;
}

/** Pier from `dist/` in its own process, with the file-system or the database store. */
export const startPier = async (store: 'file-system' | 'database'): Promise<PierProcess> => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pier-bench-'));
  const config = {
    service: {
      restserver: {
        'data-dir': dataDir,
        bind: { address: '127.0.0.1', port: 0 },
        logging: { format: 'Json', 'minimum-level': 'Warn', levels: { pier: 'Warn' } },
        'rate-limit': { enabled: false },
        backend: {
          share: { 'max-size': '4G', 'zip-max-size': '4G' },
          files: {
            'default-store': store === 'database' ? 'database' : 'filesystem',
            stores: { filesystem: { enabled: store === 'file-system', directory: join(dataDir, 'received') } },
          },
        },
      },
    },
  };
  const file = join(dataDir, 'bench.json');
  writeFileSync(file, JSON.stringify(config));
  const p = await startNode([cli, file], /Pier is running at (http:\/\/\S+)\/app/);
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
        body: JSON.stringify({ name: 'bench', validity: 86_400_000, maxViews: 100, description: null, password: null }),
      });
      const body = (await res.json()) as { success: boolean; id: string; message: string };
      if (!body.success) throw new Error(body.message);
      return body.id;
    },
    async files(shareId) {
      const res = await fetch(`${url}/api/v2/sec/share/${shareId}`, { headers });
      return ((await res.json()) as { files: Array<{ id: string; filename: string; size: number; storedSize: number }> }).files;
    },
    async stop() {
      await p.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
};
