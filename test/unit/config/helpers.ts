import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { ConfigError, loadConfig, type LoadOptions } from '../../../server/config/index.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A fresh directory under the OS temp dir, removed after the file's tests. */
export const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'pier-config-test-'));
  dirs.push(dir);
  return dir;
};

/** Writes `text` to `name` in a fresh temp dir and returns its path. */
export const writeTemp = (name: string, text: string): string => {
  const file = join(tempDir(), name);
  writeFileSync(file, text);
  return file;
};

/** loadConfig with a temp data dir (so no secret lands in the shared temp dir). */
export const load = (options: LoadOptions = {}) =>
  loadConfig({ ...options, defaults: { dataDir: tempDir(), ...options.defaults } });

/** The ConfigError a load throws (fails when it does not throw one). */
export const loadErrors = async (options: LoadOptions = {}): Promise<ConfigError> => {
  try {
    await load(options);
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
  throw new Error('expected a ConfigError');
};

/** A HOCON file holding `body` inside `service.restserver { ... }`. */
export const hoconFile = (body: string): string => writeTemp('pier.conf', `service.restserver {\n${body}\n}\n`);
