import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Json } from './server.js';

const cli = fileURLToPath(new URL('../../dist/server/cli.js', import.meta.url));

export interface NodeProcess {
  url: string;
  dataDir: string;
  child: ChildProcess;
  output(): string;
  /** SIGTERM and wait; `kill('SIGKILL')` for a crash */
  stop(): Promise<void>;
  kill(signal: NodeJS.Signals): Promise<void>;
}

/**
 * A Pier server in its own process (`dist/server/cli.js`, built by
 * `npm test`), configured with `restserver` (below `service.restserver`) and
 * listening on 127.0.0.1 at a free port.
 */
export const startNodeProcess = async (restserver: Json, dataDir?: string): Promise<NodeProcess> => {
  if (!existsSync(cli)) throw new Error('dist/server/cli.js is missing: run `npm run build:server` (npm test does).');
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'pier-node-'));
  const file = join(dir, `node-${Date.now()}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      service: {
        restserver: {
          'data-dir': dir,
          bind: { address: '127.0.0.1', port: 0 },
          logging: { format: 'Json', 'minimum-level': 'Warn', levels: { pier: 'Warn' } },
          ...restserver,
        },
      },
    }),
  );
  const child = spawn(process.execPath, [cli, file], { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env['PATH'] ?? '' } });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`node did not start:\n${out}`)), 30_000);
    const check = () => {
      const m = /Pier is running at (http:\/\/\S+)\/app/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout!.on('data', check);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`node exited:\n${out}`));
    });
  });
  const kill = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return {
    url,
    dataDir: dir,
    child,
    output: () => out,
    kill,
    stop: async () => {
      await kill('SIGTERM');
      if (!dataDir) rmSync(dir, { recursive: true, force: true });
    },
  };
};
