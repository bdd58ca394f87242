/**
 * The servers Pier is measured against, each in its own process on loopback:
 * a raw upload sink, bare @tus/server + @tus/file-store, a plain Node file
 * server, archiver STORE and nginx with sendfile.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { benchPath, startNode, stopChild, type Started } from './process.js';
import { settings } from './settings.js';

export type Anchor = Started & { url: string };

const node = async (script: string, arg: string): Promise<Anchor> => {
  const p = await startNode([benchPath(`baselines/${script}`), arg], /listening (\S+)/);
  return { ...p, url: p.match[1]! };
};

/** `PUT /<name>?offset=<n>` into files of `dir`. */
export const startSink = (dir: string) => node('sink-server.mjs', dir);
/** tus endpoint `/files`, uploads stored in `dir`. */
export const startBareTus = async (dir: string): Promise<Anchor> => {
  const a = await node('bare-tus.mjs', dir);
  return { ...a, url: `${a.url}/files` };
};
/** Every path answers with `file`. */
export const startPlainFile = (file: string) => node('static-server.mjs', file);
/** Every path answers with a ZIP of the files of `dir`. */
export const startArchiverZip = (dir: string) => node('zip-server.mjs', dir);

export const NGINX_HINT = 'nginx not found: install it with `apt-get install -y --no-install-recommends nginx-light`; the nginx rows are not run.';

const findNginx = (): string | undefined => {
  if (settings.nginx !== undefined) return existsSync(settings.nginx) ? settings.nginx : undefined;
  const dirs = [...(process.env['PATH'] ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin', '/usr/local/nginx/sbin'];
  return dirs.filter((d) => d.startsWith('/')).map((d) => join(d, 'nginx')).find((p) => existsSync(p));
};

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

const accepts = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const s = connect({ host: '127.0.0.1', port });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });

/**
 * nginx serving the files of `root` with sendfile, on a free loopback port,
 * with its own configuration, prefix and logs in a temporary directory, in
 * the foreground (`daemon off`), so it is stopped by the PID it was started
 * with. `undefined` when nginx is not installed.
 */
export const startNginx = async (root: string, under = tmpdir()): Promise<Anchor | undefined> => {
  const bin = findNginx();
  if (!bin) return undefined;
  const prefix = mkdtempSync(join(under, 'nginx-'));
  const port = await freePort();
  const conf = join(prefix, 'nginx.conf');
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${join(prefix, t)};`).join('\n');
  writeFileSync(
    conf,
    `daemon off;
worker_processes 1;
pid ${join(prefix, 'nginx.pid')};
error_log ${join(prefix, 'error.log')} warn;
${process.getuid?.() === 0 ? 'user root root;' : ''}
events { worker_connections 256; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  default_type application/octet-stream;
${temp}
  server {
    listen 127.0.0.1:${port};
    root ${root};
  }
}
`,
  );
  const child = spawn(bin, ['-p', prefix, '-c', conf, '-e', join(prefix, 'error.log')], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr.on('data', (b: Buffer) => (out += b.toString()));
  const stop = async () => {
    await stopChild(child);
    rmSync(prefix, { recursive: true, force: true });
  };
  for (let i = 0; i < 200 && child.exitCode === null; i++) {
    if (await accepts(port)) return { child, pid: child.pid!, url: `http://127.0.0.1:${port}`, output: () => out, stop };
    await new Promise((r) => setTimeout(r, 50));
  }
  await stop();
  throw new Error(`nginx did not start:\n${out}`);
};
