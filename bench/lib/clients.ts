/**
 * The clients of the benchmarks, each run in its own process so that its CPU
 * is not the server's: curl for downloads, clients/upload.mjs for uploads,
 * clients/tus-js.mjs as the real-client check.
 */
import type { Transfer } from './trials.js';
import { benchPath, runClient } from './process.js';

export interface UploadOptions {
  protocol: 'tus' | 'put';
  url: string;
  headers: Record<string, string>;
  file: string;
  chunk: number;
  /** many uploads of the whole file instead of one in chunks */
  count?: number;
  concurrency?: number;
}

const node = async (script: string, options: object): Promise<Transfer> => {
  const { stdout, cpu } = await runClient(process.execPath, [benchPath(script), JSON.stringify(options)]);
  const r = JSON.parse(stdout.trim().split('\n').pop()!) as Omit<Transfer, 'clientCpu'>;
  return { ...r, clientCpu: cpu };
};

export const uploadClient = (o: UploadOptions) => node('clients/upload.mjs', o);

export const tusJsClient = (o: { url: string; headers: Record<string, string>; file: string; chunk: number }) => node('clients/tus-js.mjs', o);

const WRITE_OUT = '%{http_code} %{size_download} %{time_total}\\n';

export type Expected = { bytes: number } | { atLeast: number } | { ranges: Array<[number, number]> };

/**
 * GETs `url` with curl into /dev/null, once, or once per range (`[first,
 * last]`) over one kept-alive connection; checks status and size of each.
 */
export const curl = async (url: string, headers: Record<string, string>, expected: Expected): Promise<Transfer> => {
  const h = Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]);
  const one = (range?: [number, number]) => ['-sS', '-o', '/dev/null', ...h, ...(range ? ['-r', `${range[0]}-${range[1]}`] : []), '-w', WRITE_OUT, url];
  const ranges = 'ranges' in expected ? expected.ranges : undefined;
  const args = ranges ? ranges.flatMap((r, i) => [...(i > 0 ? ['--next'] : []), ...one(r)]) : one();
  const { stdout, cpu } = await runClient('curl', args);
  const lines = stdout.trim().split('\n');
  let bytes = 0;
  let seconds = 0;
  lines.forEach((line, i) => {
    const [code, size, time] = line.split(' ').map(Number) as [number, number, number];
    const want = ranges ? ranges[i]![1] - ranges[i]![0] + 1 : 'bytes' in expected ? expected.bytes : undefined;
    const ok = want === undefined ? size >= (expected as { atLeast: number }).atLeast : size === want;
    if (code !== (ranges ? 206 : 200) || !ok) throw new Error(`curl ${url}: status ${code}, ${size} bytes, expected ${want ?? 'more'}`);
    bytes += size;
    seconds += time;
  });
  return { bytes, files: lines.length, seconds, clientCpu: cpu };
};
