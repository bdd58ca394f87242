/**
 * Sizes and repetitions of the benchmarks, from the environment so that a
 * quick run needs no edit: `BENCH_SIZE=64M BENCH_ROUNDS=2 npm run bench`.
 * Sizes take a K, M or G suffix (powers of 1024).
 */
const UNITS: Record<string, number> = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 };

export const parseSize = (name: string, text: string): number => {
  const m = /^(\d+(?:\.\d+)?)\s*([KMG]?)i?B?$/i.exec(text.trim());
  const bytes = m ? Math.round(Number(m[1]) * UNITS[m[2]!.toUpperCase()]!) : NaN;
  if (!(bytes > 0)) throw new Error(`${name}=${text}: expected a size such as 1G, 64M or 1048576`);
  return bytes;
};

const size = (name: string, dflt: string): number => parseSize(name, process.env[name] ?? dflt);

const int = (name: string, dflt: number, min = 1): number => {
  const text = process.env[name];
  if (text === undefined) return dflt;
  const n = Number(text);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name}=${text}: expected a whole number of at least ${min}`);
  return n;
};

export const settings = {
  /** one upload and the download file */
  size: size('BENCH_SIZE', '1G'),
  /** the upload client's request size */
  chunk: size('BENCH_CHUNK', '10M'),
  rounds: int('BENCH_ROUNDS', 5),
  zipFiles: int('BENCH_ZIP_FILES', 20),
  zipFileSize: size('BENCH_ZIP_FILE_SIZE', '50M'),
  smallFiles: int('BENCH_SMALL_FILES', 300),
  smallSize: size('BENCH_SMALL_SIZE', '1M'),
  smallConcurrency: int('BENCH_SMALL_CONCURRENCY', 4),
  loadSeconds: int('BENCH_LOAD_SECONDS', 60),
  gatewaySeconds: int('BENCH_GATEWAY_SECONDS', 10),
  /** the gateway's `player.access`: user (the default configuration), open or admin */
  gatewayAccess: process.env['BENCH_GATEWAY_ACCESS'] ?? 'user',
  /** the nginx binary; found on PATH, /usr/sbin or /usr/local/sbin when unset */
  nginx: process.env['BENCH_NGINX'],
  /** where Pier writes `node --cpu-prof` profiles; none when unset */
  profileDir: process.env['BENCH_PROFILE'],
  /** write the results as JSON to this file */
  json: process.env['BENCH_JSON'],
  /** results of an earlier run (BENCH_JSON) for the "unchanged" targets */
  baseline: process.env['BENCH_BASELINE'],
};

export const formatSize = (bytes: number): string => {
  for (const [unit, f] of [['GiB', 1024 ** 3], ['MiB', 1024 ** 2], ['KiB', 1024]] as const) {
    if (bytes >= f) return `${Number((bytes / f).toFixed(2))} ${unit}`;
  }
  return `${bytes} B`;
};
