/**
 * The configuration's public API. With `sqlite-binding.ts` (which compiled
 * SQLite module the runtime loads), the only module of the server that reads
 * `process.env` (in `loadProcessConfig`); everything else receives a `Config`.
 */
import { loadConfig, type LoadOptions } from './load.js';
import type { Config } from './types.js';

export { ConfigError, loadConfig, type LoadOptions } from './load.js';
export { decodeSecret, resolveServerSecret, SECRET_FILE } from './secret.js';
export { defaultDataDir } from './data-dir.js';
export { renderConfigDocs } from './docs.js';
export { isLocalUrl } from './rules.js';
export type * from './types.js';

/**
 * `loadConfig` with the process environment: what the headless server and the
 * desktop app call. `file` is the optional configuration file.
 */
export const loadProcessConfig = (
  file?: string,
  defaults?: LoadOptions['defaults'],
): Promise<{ config: Config; warnings: string[] }> =>
  loadConfig({ file, env: process.env, ...(defaults ? { defaults } : {}) });
