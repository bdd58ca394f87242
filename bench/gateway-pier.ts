/**
 * Pier for the gateway benchmark, in its own process: a real server built in
 * `dist/` (`npm run build:server`) from a config file (temp data dir,
 * SQLite), the player gateway pointing at the benchmark's daemon.
 * Usage: tsx bench/gateway-pier.ts <daemon port> <access>; prints its URL
 * (and an admin token when access is not `open`).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dist = (p: string) => new URL(`../dist/server/${p}`, import.meta.url).href;
const { loadConfig } = (await import(dist('config/index.js'))) as typeof import('../server/config/index.js');
const { createServer } = (await import(dist('index.js'))) as typeof import('../server/index.js');

const [portArg, access = 'open'] = process.argv.slice(2);
const dataDir = mkdtempSync(join(tmpdir(), 'pier-bench-'));
const file = join(dataDir, 'bench.json');
writeFileSync(
  file,
  JSON.stringify({
    service: {
      restserver: {
        'data-dir': dataDir,
        bind: { address: '127.0.0.1', port: 0 },
        logging: { format: 'Json', 'minimum-level': 'Warn' },
        player: {
          access,
          connections: { default: { host: '127.0.0.1', port: Number(portArg), 'max-connections': 8 } },
        },
      },
    },
  }),
);
const { config } = await loadConfig({ file, env: {} });
const password = 'bench-admin-password';
const server = createServer(config, { initialAdmin: { kind: 'given', login: 'admin', password } });
const { url } = await server.start();
let token = '';
if (access !== 'open') {
  const res = await fetch(`${url}/api/v2/open/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ account: 'admin', password }),
  });
  token = ((await res.json()) as { token: string }).token;
}
console.log(`BENCH ${JSON.stringify({ url, token })}`);
const stop = () => {
  void server.stop().finally(() => {
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
