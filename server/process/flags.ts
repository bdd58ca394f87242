/**
 * How the server's process is started: its Node flags and the environment
 * that sets glibc's malloc limits. Both act only when the process starts
 * (V8 and glibc read them once), so they belong to whoever starts it:
 * `npm run serve` (scripts/serve.mjs), the desktop app's utility process
 * (`execArgv` and `env`), the benchmarks, and a service manager (the unit
 * example in README). Pure constants: the desktop's main process imports them.
 *
 * - `--max-semi-space-size=1`: V8 grows the young generation to 16 MiB per
 *   semi-space during start-up and keeps it; 1 MiB is enough for the server.
 * - `--heap-growing-percent=100`: the old generation grows to twice what
 *   survived the last full collection, not four times.
 * - `MALLOC_ARENA_MAX=2`: glibc gives every allocating thread its own arena
 *   (thread pool, V8's helpers), and each arena keeps what was freed in it.
 * - `MALLOC_MMAP_THRESHOLD_` and `MALLOC_TRIM_THRESHOLD_` at 4 MiB: blocks from
 *   4 MiB up get their own mapping, and an arena gives back the free memory
 *   at its top beyond 4 MiB. Set explicitly, they also stop glibc from
 *   raising both thresholds to 32 and 64 MiB each time a large block is freed.
 *
 * Other allocators (macOS, Windows, musl) ignore the `MALLOC_*` names.
 */

/** Node (V8) flags of the server's process, in order. */
export const SERVER_NODE_FLAGS: readonly string[] = Object.freeze(['--max-semi-space-size=1', '--heap-growing-percent=100']);

/** Environment of the server's process; a variable the caller already set wins over these. */
export const SERVER_MEMORY_ENV: Readonly<Record<string, string>> = Object.freeze({
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: String(4 * 1024 * 1024),
  MALLOC_TRIM_THRESHOLD_: String(4 * 1024 * 1024),
});
