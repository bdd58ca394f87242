/**
 * glibc's malloc limits for the server's process, set by the native addon
 * `pier-malloc-tuning` (native/malloc-tuning):
 *
 * - at most `ARENA_MAX` arenas: glibc gives every thread that allocates its
 *   own arena (the thread pool, V8's helper threads, the hash thread), and
 *   each arena keeps the memory freed in it;
 * - allocations from `MMAP_THRESHOLD` up get their own mapping, smaller ones
 *   (1 MiB buffers, 512 KiB rows) come from the arenas and are reused;
 * - an arena gives the free memory at its top back to the system once it is
 *   over `TRIM_THRESHOLD`.
 *
 * By default glibc raises both thresholds each time it frees a large mapped
 * block, up to 32 and 64 MiB: arenas then keep tens of MB that the server
 * freed long ago. Limits an operator set for the process (glibc's `MALLOC_*`
 * variables or `GLIBC_TUNABLES`) are left as they are.
 *
 * The main arena gives its top back by lowering `brk`. In roughly one start
 * in 150, V8 reserves its code range right after the brk heap; that arena
 * then grows through mappings it cannot trim, and keeps what it freed as it
 * would without these limits (for reuse; peaks are unchanged).
 */
import { createRequire } from 'node:module';

const ARENA_MAX = 2;
const MMAP_THRESHOLD = 4 * 1024 * 1024;
const TRIM_THRESHOLD = 4 * 1024 * 1024;

/**
 * `tuned`; `operator` when the environment sets glibc's malloc limits;
 * `other-allocator` where glibc is not the allocator (macOS, Windows, musl,
 * or a process whose allocator replaces glibc's); `unavailable` on glibc
 * when the addon is not built or fails.
 */
export type MallocTuning = 'tuned' | 'operator' | 'other-allocator' | 'unavailable';

const OPERATOR_VARIABLES = ['MALLOC_ARENA_MAX', 'MALLOC_ARENA_TEST', 'MALLOC_MMAP_THRESHOLD_', 'MALLOC_TRIM_THRESHOLD_', 'MALLOC_TOP_PAD_', 'MALLOC_MMAP_MAX_'];

/** Whether `env` sets any of glibc's malloc limits. */
export const operatorSetsMalloc = (env: NodeJS.ProcessEnv): boolean =>
  OPERATOR_VARIABLES.some((name) => env[name] !== undefined) || /(^|:)glibc\.malloc\./.test(env['GLIBC_TUNABLES'] ?? '');

/**
 * Whether this Linux process runs on glibc (`process.report` names its
 * version). A full report takes milliseconds: asked only when the addon,
 * which knows, cannot answer.
 */
const onGlibc = (): boolean => {
  const report = process.report.getReport() as { header?: { glibcVersionRuntime?: unknown } };
  return typeof report.header?.glibcVersionRuntime === 'string';
};

/** The addon's `tune`; undefined when it is missing or not built. */
const loadTune = (): ((arenaMax: number, mmapThreshold: number, trimThreshold: number) => boolean) | undefined => {
  try {
    const addon = createRequire(import.meta.url)('pier-malloc-tuning') as { tune?: unknown };
    return typeof addon.tune === 'function' ? (addon.tune as (a: number, m: number, t: number) => boolean) : undefined;
  } catch {
    return undefined;
  }
};

let state: MallocTuning | undefined;

/** Sets the limits for the whole process, once; what happened. */
export const tuneMalloc = (env: NodeJS.ProcessEnv = process.env): MallocTuning => {
  if (state) return state;
  if (process.platform !== 'linux') return (state = 'other-allocator');
  if (operatorSetsMalloc(env)) return (state = onGlibc() ? 'operator' : 'other-allocator');
  const tune = loadTune();
  if (!tune) return (state = onGlibc() ? 'unavailable' : 'other-allocator');
  try {
    // the addon returns false where glibc is not the allocator
    return (state = tune(ARENA_MAX, MMAP_THRESHOLD, TRIM_THRESHOLD) ? 'tuned' : 'other-allocator');
  } catch {
    return (state = 'unavailable');
  }
};
