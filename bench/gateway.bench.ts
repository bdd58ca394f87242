/**
 * The gateway benchmark of issue 5 (`npm run bench`): 8 concurrent
 * keep-alive clients send `status` through `POST /api/v1/player` for 10 s,
 * against the same clients talking to a minimal forwarder
 * (gateway-forwarder.ts). Pier and the forwarder run in their own processes,
 * against one real mpd. Prints
 * `gateway: ratio <pier/forwarder> (pier <req/s>, forwarder <req/s>, p99 <ms>)`.
 * Options: `--seconds N`, `--access user|open|admin` (default `user`, the
 * default configuration: every request carries a token, while the forwarder
 * checks nothing).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { startMpd } from '../test/support/mpd.js';

const arg = (name: string, dflt: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? dflt) : dflt;
};
const SECONDS = Number(arg('seconds', '10'));
const ACCESS = arg('access', 'user');
const CLIENTS = 8;
const tsx = fileURLToPath(new URL('../node_modules/.bin/tsx', import.meta.url));

const startChild = (script: string, args: string[]): Promise<{ child: ChildProcess; info: { url: string; token?: string } }> =>
  new Promise((resolve, reject) => {
    const child = spawn(tsx, [fileURLToPath(new URL(script, import.meta.url)), ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith('BENCH {'));
      if (line) resolve({ child, info: JSON.parse(line.slice(6)) as { url: string; token?: string } });
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });

const stopChild = (child: ChildProcess): Promise<void> =>
  new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

/** `CLIENTS` keep-alive clients in a loop for `seconds`; returns requests/s and latency percentiles. */
const load = async (url: string, path: string, headers: Record<string, string>, seconds: number) => {
  const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
  const u = new URL(url);
  const body = JSON.stringify({ command: 'status' });
  const once = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const req = request(
        { host: u.hostname, port: u.port, path, method: 'POST', agent, headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), ...headers } },
        (res) => {
          if (res.statusCode !== 200) reject(new Error(`status ${res.statusCode}`));
          res.resume();
          res.on('end', () => resolve());
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const latencies: number[] = [];
  const until = Date.now() + seconds * 1000;
  const client = async () => {
    while (Date.now() < until) {
      const t = process.hrtime.bigint();
      await once();
      latencies.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: CLIENTS }, client));
  const elapsed = (Date.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { rps: latencies.length / elapsed, p99: latencies[Math.floor(latencies.length * 0.99)] ?? 0 };
};

const mpd = await startMpd();
const children: ChildProcess[] = [];
try {
  const pier = await startChild('./gateway-pier.ts', [String(mpd.port), ACCESS]);
  children.push(pier.child);
  const fwd = await startChild('./gateway-forwarder.ts', [String(mpd.port)]);
  children.push(fwd.child);
  const auth: Record<string, string> = pier.info.token ? { 'Service-Auth': pier.info.token } : {};
  // warm up both (JIT, pools), then measure one after the other
  await load(pier.info.url, '/api/v1/player', auth, 1);
  await load(fwd.info.url, '/', {}, 1);
  const p = await load(pier.info.url, '/api/v1/player', auth, SECONDS);
  const f = await load(fwd.info.url, '/', {}, SECONDS);
  console.log(`gateway: ratio ${(p.rps / f.rps).toFixed(2)} (pier ${Math.round(p.rps)}, forwarder ${Math.round(f.rps)}, p99 ${p.p99.toFixed(1)})`);
} finally {
  await Promise.all(children.map(stopChild));
  await mpd.dispose();
}
