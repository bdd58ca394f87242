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
 * freed long ago.
 */
import { createRequire } from 'node:module';

const ARENA_MAX = 2;
const MMAP_THRESHOLD = 4 * 1024 * 1024;
const TRIM_THRESHOLD = 4 * 1024 * 1024;

/** `tuned`; `other-allocator` off glibc (macOS, Windows, musl); `unavailable` when the addon is not built. */
export type MallocTuning = 'tuned' | 'other-allocator' | 'unavailable';

let state: MallocTuning | undefined;

/** Sets the limits for the whole process, once. */
export const tuneMalloc = (): MallocTuning => {
  if (state) return state;
  let addon: { tune(arenaMax: number, mmapThreshold: number, trimThreshold: number): boolean };
  try {
    addon = createRequire(import.meta.url)('pier-malloc-tuning') as typeof addon;
  } catch {
    return (state = process.platform === 'linux' ? 'unavailable' : 'other-allocator');
  }
  return (state = addon.tune(ARENA_MAX, MMAP_THRESHOLD, TRIM_THRESHOLD) ? 'tuned' : 'other-allocator');
};
