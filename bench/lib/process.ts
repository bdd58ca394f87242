import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface Started {
  child: ChildProcess;
  /** text the process printed so far */
  output(): string;
  /** peak resident set size of the process so far, in MB (VmHWM) */
  peakRssMb(): number;
  stop(): Promise<void>;
}

/** Starts a Node script and waits until its output matches `ready`. */
export const startNode = async (args: string[], ready: RegExp, env: Record<string, string> = {}): Promise<Started & { match: RegExpExecArray }> => {
  const child = spawn(process.execPath, args, { env: { PATH: process.env['PATH'] ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready after 30 s:\n${out}`)), 30_000);
    const check = () => {
      const m = ready.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    };
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${out}`)));
  });
  let peak = 0;
  const peakRssMb = (): number => {
    try {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
      peak = Math.max(peak, kb / 1024);
    } catch {
      // exited: keep the last reading
    }
    return peak;
  };
  return {
    child,
    match,
    output: () => out,
    peakRssMb,
    stop: () =>
      new Promise<void>((resolve) => {
        peakRssMb();
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }),
  };
};

export const mbPerSecond = (bytes: number, ms: number): number => bytes / (1024 * 1024) / (ms / 1000);

/** `<name>: ratio <r> (pier <a> MB/s, baseline <b> MB/s, peak RSS <m> MB)` */
export const report = (name: string, pier: number[], baseline: number[], peakRss: number, extra = ''): number => {
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const p = mean(pier);
  const b = mean(baseline);
  const ratio = p / b;
  console.log(
    `${name}: ratio ${ratio.toFixed(2)} (pier ${p.toFixed(0)} MB/s, baseline ${b.toFixed(0)} MB/s, peak RSS ${peakRss.toFixed(0)} MB)${extra}`,
  );
  return ratio;
};
