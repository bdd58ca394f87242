import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface Started {
  child: ChildProcess;
  /** the process id whose tree is measured */
  pid: number;
  /** text the process printed so far */
  output(): string;
  stop(): Promise<void>;
}

/** Starts a program and waits until its output matches `ready`. */
export const startProcess = async (
  command: string,
  args: string[],
  ready: RegExp,
  env: Record<string, string> = {},
): Promise<Started & { match: RegExpExecArray }> => {
  const child = spawn(command, args, { env: { PATH: process.env['PATH'] ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${command} not ready after 30 s:\n${out}`)), 30_000);
    const check = () => {
      const m = ready.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    };
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${command} exited with ${code}:\n${out}`)));
  });
  return { child, pid: child.pid!, match, output: () => out, stop: () => stopChild(child) };
};

/** Starts a Node script and waits until its output matches `ready`. */
export const startNode = (args: string[], ready: RegExp, env: Record<string, string> = {}) =>
  startProcess(process.execPath, args, ready, env);

/** SIGTERM, then SIGKILL after 10 s. */
export const stopChild = (child: ChildProcess): Promise<void> =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
  });

export const benchPath = (p: string): string => fileURLToPath(new URL(`../${p}`, import.meta.url));

/**
 * Runs a client program to its end in its own process; returns what it
 * printed and the CPU seconds it used. The CPU time comes from the shell's
 * `times` (user + system of its ended children), so the client needs no
 * cooperation.
 */
export const runClient = (command: string, args: string[]): Promise<{ stdout: string; cpu: number }> =>
  new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', '"$@"; s=$?; echo "@times"; times; exit $s', 'sh', command, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      const at = out.lastIndexOf('@times\n');
      const stdout = at >= 0 ? out.slice(0, at) : out;
      if (code !== 0) return reject(new Error(`${command} exited with ${code}: ${err.trim() || stdout.trim()}`));
      // `times` prints the shell's own line, then its children's: `0m1.250s 0m0.310s`
      const children = out.slice(at).trim().split('\n').pop() ?? '';
      const cpu = [...children.matchAll(/(\d+)m([\d.]+)s/g)].reduce((s, m) => s + Number(m[1]) * 60 + Number(m[2]), 0);
      resolve({ stdout, cpu });
    });
  });
