import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { operatorSetsMalloc, tuneMalloc } from '../../../server/common/malloc-tuning.js';

const built = fileURLToPath(new URL('../../../dist/server/common/malloc-tuning.js', import.meta.url));

/**
 * In a new process: frees one 30 MiB block (glibc then raises its thresholds
 * to that size), then fills and frees 64 blocks of 512 KiB; the MB of
 * resident memory that stay after the second free. With `tuned` the server's
 * limits are set first.
 */
const keptAfterFree = (tuned: boolean): number => {
  const script = `
${tuned ? `const { tuneMalloc } = await import(${JSON.stringify(pathToFileURL(built).href)}); if (tuneMalloc() !== 'tuned') throw new Error('not tuned');` : ''}
const rss = () => process.memoryUsage().rss / 1048576;
let big = Buffer.allocUnsafeSlow(30 << 20); big.fill(1); big = null; gc(); gc();
const before = rss();
let many = Array.from({ length: 64 }, () => Buffer.allocUnsafeSlow(512 << 10).fill(2));
if (rss() - before < 24) throw new Error('the blocks were not resident');
many = null; gc(); gc();
console.log(rss() - before);
`;
  return Number(execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8' }).trim());
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
