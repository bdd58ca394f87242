/**
 * gateway: 8 keep-alive clients (clients/gateway-load.mjs, its own process)
 * send `status` through Pier's `POST /api/v1/player` for
 * BENCH_GATEWAY_SECONDS (10 s) per trial, alternating with the same clients
 * talking to the minimal forwarder (gateway-forwarder.ts), against one real
 * mpd. Pier runs from `dist/` as in every scenario, with `player.access` BENCH_GATEWAY_ACCESS (default `user`:
 * every request carries a token, while the forwarder checks nothing). A third
 * contender, the same forwarder behind express, shows how far any express
 * app gets on this machine.
 */
import { tmpdir } from 'node:os';
import { startMpd } from '../test/support/mpd.js';
import { startPier } from './lib/pier.js';
import { benchPath, runClient, startProcess, type Started } from './lib/process.js';
import { settings } from './lib/settings.js';
import { runRounds, type Contender, type Scenario } from './lib/trials.js';

const CLIENTS = 8;

/** A TypeScript script in one Node process (tsx as a loader, so no wrapper process is measured). */
const startChild = async (script: string, args: string[]) => {
  const p = await startProcess(process.execPath, ['--import', import.meta.resolve('tsx'), benchPath(script), ...args], /BENCH (\{.*\})/);
  return { ...p, info: JSON.parse(p.match[1]!) as { url: string; token?: string } };
};

const load = async (url: string, path: string, headers: Record<string, string>) => {
  const options = { url, path, headers, body: JSON.stringify({ command: 'status' }), clients: CLIENTS, seconds: settings.gatewaySeconds };
  const { stdout, cpu } = await runClient(process.execPath, [benchPath('clients/gateway-load.mjs'), JSON.stringify(options)]);
  return { ...(JSON.parse(stdout.trim().split('\n').pop()!) as { bytes: number; files: number; seconds: number; p50: number; p99: number }), clientCpu: cpu };
};

export const benchGateway = async (): Promise<Scenario> => {
  const mpd = await startMpd();
  const started: Started[] = [];
  try {
    // Pier as in every scenario: started as `npm run serve` starts it, with its configuration file
    const pier = await startPier('file-system', tmpdir(), {}, {
      player: { access: settings.gatewayAccess, connections: { default: { host: '127.0.0.1', port: mpd.port, 'max-connections': 8 } } },
    });
    started.push(pier);
    const fwd = await startChild('gateway-forwarder.ts', [String(mpd.port)]);
    started.push(fwd);
    const viaExpress = await startChild('gateway-forwarder.ts', [String(mpd.port), 'express']);
    started.push(viaExpress);
    const auth: Record<string, string> = settings.gatewayAccess === 'open' ? {} : { 'Service-Auth': pier.token };
    const contenders: Contender[] = [
      { name: 'forwarder', pid: fwd.pid, run: () => load(fwd.info.url, '/', {}) },
      { name: 'express forwarder', pid: viaExpress.pid, run: () => load(viaExpress.info.url, '/', {}) },
      { name: 'Pier', pid: pier.pid, run: () => load(pier.url, '/api/v1/player', auth) },
    ];
    return await runRounds(
      `gateway: ${CLIENTS} keep-alive clients sending \`status\` for ${settings.gatewaySeconds} s, player access \`${settings.gatewayAccess}\``,
      'req/s',
      contenders,
      settings.rounds,
    );
  } finally {
    await Promise.all(started.map((s) => s.stop()));
    await mpd.dispose();
  }
};
