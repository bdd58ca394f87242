/**
 * A real music player daemon for the gateway tests: `mpd` on a free loopback
 * port with a null output and a generated library (mpd-library.ts), started
 * and stopped by its PID. Without `mpd` installed this throws with the
 * install command: a suite that silently skips is a failure.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, mkdirSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateLibrary, type Library } from './mpd-library.js';
import { delay, freePort, isAlive, killOnExit } from './system.js';

export const MPD_INSTALL_COMMAND =
  'apt-get update && apt-get install -y --no-install-recommends mpd mpc sox libsox-fmt-base libsox-fmt-mp3 flac id3v2';

const template = readFileSync(new URL('../fixtures/mpd/mpd.conf.template', import.meta.url), 'utf8');

export interface MpdOptions {
  /** `password "<pw>@read,add,control,admin"`; then nothing is allowed without it */
  password?: string;
  /** `null` (software volume, default) or `none` (no mixer: status without volume) */
  mixer?: 'null' | 'none';
}

export interface MpdInstance {
  port: number;
  root: string;
  library: Library;
  pid(): number | undefined;
  /** sends commands on a fresh connection (with the password when set) and returns the raw answer text */
  command(...lines: string[]): Promise<string>;
  /** runs `mpc` against this daemon */
  mpc(...args: string[]): string;
  /** stops the daemon (SIGTERM, by PID) and waits until it is gone */
  stop(): Promise<void>;
  /** starts it again on the same port with the same database */
  start(): Promise<void>;
  /** stops it and removes its directory */
  dispose(): Promise<void>;
}

const checkInstalled = (): void => {
  for (const bin of ['mpd', 'mpc', 'sox', 'metaflac', 'id3v2']) {
    const r = spawnSync('sh', ['-c', `command -v ${bin}`], { encoding: 'utf8' });
    if (r.status !== 0) {
      throw new Error(
        `${bin} is not installed; the player gateway tests need a real mpd and the tools that generate the test library. ` +
          `Install them with:\n  ${MPD_INSTALL_COMMAND}\n(npm test runs scripts/ensure-system-deps.mjs first, which does this when run as root.)`,
      );
    }
  }
};

/** Sends lines on one connection and reads until the last answer ends (OK/ACK after the last command). */
export const rawCommand = (port: number, lines: string[], password?: string): Promise<string> =>
  new Promise((resolve, reject) => {
    const s = connect({ host: '127.0.0.1', port });
    const all = [...(password ? [`password "${password}"`] : []), ...lines];
    let buf = '';
    let greeted = false;
    let answers = 0;
    s.setEncoding('utf8');
    s.on('data', (d: string) => {
      buf += d;
      if (!greeted && buf.includes('\n')) {
        greeted = true;
        buf = buf.slice(buf.indexOf('\n') + 1);
        s.write(all.map((l) => `${l}\n`).join(''));
      }
      answers = buf.split('\n').filter((l) => l === 'OK' || l.startsWith('ACK ')).length;
      if (greeted && answers >= all.length) {
        s.end();
        resolve(password ? buf.slice(buf.indexOf('\n') + 1) : buf);
      }
    });
    s.on('error', reject);
    setTimeout(() => {
      s.destroy();
      reject(new Error(`mpd on ${port} did not answer ${lines.join('; ')}: ${buf}`));
    }, 10_000).unref();
  });

const waitForPort = async (port: number, child: ChildProcess, logFile: string): Promise<void> => {
  for (let i = 0; i < 1000; i++) {
    if (child.exitCode !== null) throw new Error(`mpd exited with ${child.exitCode}:\n${safeRead(logFile)}`);
    const ok = await new Promise<boolean>((r) => {
      const s = connect({ host: '127.0.0.1', port });
      s.once('connect', () => {
        s.destroy();
        r(true);
      });
      s.once('error', () => r(false));
    });
    if (ok) return;
    await delay(10);
  }
  throw new Error(`mpd did not listen on ${port}:\n${safeRead(logFile)}`);
};

const safeRead = (f: string): string => {
  try {
    return readFileSync(f, 'utf8');
  } catch {
    return '';
  }
};

/** Generates the library and starts a daemon on a free port; waits until it has scanned every song. */
export const startMpd = async (opts: MpdOptions = {}): Promise<MpdInstance> => {
  checkInstalled();
  const root = mkdtempSync(join(tmpdir(), 'pier-mpd-'));
  const library = await generateLibrary(root);
  mkdirSync(join(root, 'playlists'), { recursive: true });
  const port = await freePort();
  const conf = join(root, 'mpd.conf');
  writeFileSync(
    conf,
    template
      .replaceAll('{{root}}', root)
      .replaceAll('{{port}}', String(port))
      .replaceAll('{{mixer}}', opts.mixer ?? 'null')
      .replaceAll('{{passwordLine}}', opts.password ? `password "${opts.password}@read,add,control,admin"` : ''),
  );
  let child: ChildProcess | undefined;
  const cancelHook = killOnExit(() => child?.pid, 'SIGKILL', root);

  const start = async (): Promise<void> => {
    const c = spawn('mpd', ['--no-daemon', '--stderr', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    c.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child = c;
    try {
      await waitForPort(port, c, join(root, 'mpd.log'));
    } catch (e) {
      throw new Error(`${(e as Error).message}\n${stderr}`);
    }
  };

  const stop = async (): Promise<void> => {
    const c = child;
    child = undefined;
    if (!c?.pid) return;
    const exited = c.exitCode !== null ? Promise.resolve() : new Promise<void>((r) => c.once('exit', () => r()));
    try {
      process.kill(c.pid, 'SIGTERM');
    } catch {
      // already gone
    }
    await Promise.race([exited, delay(5000)]);
    if (isAlive(c.pid)) {
      process.kill(c.pid, 'SIGKILL');
      await exited;
    }
  };

  const inst: MpdInstance = {
    port,
    root,
    library,
    pid: () => child?.pid,
    command: (...lines) => rawCommand(port, lines, opts.password),
    mpc: (...args) => {
      const env = { ...process.env, MPD_HOST: opts.password ? `${opts.password}@127.0.0.1` : '127.0.0.1', MPD_PORT: String(port) };
      const r = spawnSync('mpc', args, { encoding: 'utf8', env, timeout: 10_000 });
      if (r.status !== 0) throw new Error(`mpc ${args.join(' ')} failed: ${r.stderr}`);
      return r.stdout;
    },
    stop,
    start,
    async dispose() {
      await stop();
      cancelHook();
      rmSync(root, { recursive: true, force: true });
    },
  };

  try {
    await start();
    // the first start scans the library; wait until every song is in the database
    for (let i = 0; ; i++) {
      const stats = await inst.command('stats');
      if (new RegExp(`^songs: ${library.songs}$`, 'm').test(stats)) break;
      if (i > 500) throw new Error(`mpd did not scan the library: ${stats}\n${safeRead(join(root, 'mpd.log'))}`);
      await delay(10);
    }
  } catch (e) {
    await inst.dispose();
    throw e;
  }
  return inst;
};
