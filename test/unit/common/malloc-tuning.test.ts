import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { operatorSetsMalloc, tuneMalloc } from '../../../server/common/malloc-tuning.js';

const built = fileURLToPath(new URL('../../../dist/server/common/malloc-tuning.js', import.meta.url));

/** The child's answer when its brk heap cannot grow: see `keptAfterFree`. */
const HEAP_BLOCKED = 'heap-blocked';

/**
 * In a new process: frees one 30 MiB block (glibc then raises its thresholds
 * to that size), then fills and frees 64 blocks of 512 KiB; the MB of
 * resident memory that stay after the second free. With `tuned` the server's
 * limits are set first.
 *
 * A process whose brk heap V8's code range blocks keeps freed memory as if
 * untuned (see `server/common/malloc-tuning.ts`); the code range may start a
 * few pages after the heap, so a child whose heap has less than 64 MiB of
 * room answers HEAP_BLOCKED, and the measurement is taken in a new one.
 */
const keptAfterFree = (tuned: boolean): number => {
  const script = `
import { readFileSync } from 'node:fs';
${tuned ? `const { tuneMalloc } = await import(${JSON.stringify(pathToFileURL(built).href)}); if (tuneMalloc() !== 'tuned') throw new Error('not tuned');` : ''}
const rss = () => process.memoryUsage().rss / 1048576;
const maps = readFileSync('/proc/self/maps', 'utf8').split('\\n');
const heap = maps.findIndex((line) => line.endsWith('[heap]'));
if (heap < 0) throw new Error('no brk heap in /proc/self/maps');
const room = parseInt(maps[heap + 1]?.split('-')[0] ?? 'ffffffffffff', 16) - parseInt(maps[heap].split('-')[1], 16);
if (room < 64 << 20) { console.log(${JSON.stringify(HEAP_BLOCKED)}); process.exit(0); }
let big = Buffer.allocUnsafeSlow(30 << 20); big.fill(1); big = null; gc(); gc();
const before = rss();
let many = Array.from({ length: 64 }, () => Buffer.allocUnsafeSlow(512 << 10).fill(2));
if (rss() - before < 24) throw new Error('the blocks were not resident');
many = null; gc(); gc();
console.log(rss() - before);
`;
  for (let start = 0; start < 5; start++) {
    const answer = execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8' }).trim();
    if (answer !== HEAP_BLOCKED) return Number(answer);
  }
  throw new Error('the brk heap was blocked in five new processes in a row');
};

describe("glibc's malloc limits for the server process", () => {
  it("are set by the built addon on this machine's glibc", () => {
    expect(process.platform, 'this suite runs on Linux, where glibc is the allocator').toBe('linux');
    expect(tuneMalloc({})).toBe('tuned');
  });

  it('are left as an operator set them through glibc\'s variables', () => {
    expect(operatorSetsMalloc({})).toBe(false);
    expect(operatorSetsMalloc({ MALLOC_ARENA_MAX: '4' })).toBe(true);
    expect(operatorSetsMalloc({ MALLOC_TRIM_THRESHOLD_: '131072' })).toBe(true);
    expect(operatorSetsMalloc({ GLIBC_TUNABLES: 'glibc.pthread.rseq=0:glibc.malloc.arena_max=1' })).toBe(true);
    expect(operatorSetsMalloc({ GLIBC_TUNABLES: 'glibc.pthread.rseq=0' })).toBe(false);
    if (!existsSync(built)) throw new Error('dist/server/common/malloc-tuning.js is missing: run `npm run build:server` (npm test does).');
    const tuning = execFileSync(process.execPath, ['--input-type=module', '-e', `const { tuneMalloc } = await import(${JSON.stringify(pathToFileURL(built).href)}); console.log(tuneMalloc());`], {
      encoding: 'utf8',
      env: { PATH: process.env['PATH'] ?? '', MALLOC_ARENA_MAX: '4' },
    });
    expect(tuning.trim()).toBe('operator');
  });

  it('are refused unless each is a whole number from 1 to 2^31 - 1', () => {
    const addon = createRequire(import.meta.url)('pier-malloc-tuning') as { tune: (...limits: unknown[]) => boolean };
    for (const limits of [[], [2, 4096], ['2', 4096, 4096], [2, 0, 4096], [2, 4096, -1], [2, 4096, 2 ** 40], [2, 2 ** 32 + 4096, 4096], [2.5, 4096, 4096], [2, 4096, NaN]]) {
      expect(() => addon.tune(...limits), JSON.stringify(limits)).toThrow(TypeError);
    }
  });

  it('make freed memory go back to the system, where glibc keeps it by default', () => {
    if (!existsSync(built)) throw new Error('dist/server/common/malloc-tuning.js is missing: run `npm run build:server` (npm test does).');
    // by default: 64 × 512 KiB stay resident after they are freed
    expect(keptAfterFree(false)).toBeGreaterThan(24);
    expect(keptAfterFree(true)).toBeLessThan(4);
  });
});
