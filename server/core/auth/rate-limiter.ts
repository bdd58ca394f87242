import type { Clock } from '../../common/clock.js';

export interface RateLimiter {
  /** Seconds until `key` may try again, or 0 when it may try now. */
  blockedFor(key: string): number;
  /** Counts one failure for `key`. */
  fail(key: string): void;
  /** Forgets the failures of `key` (after a success). */
  reset(key: string): void;
}

/**
 * Failures per key within a sliding window. Over `limit` failures within
 * `windowMs`, the key is blocked until the oldest counted failure leaves the
 * window. Memory is bounded: stale keys are dropped as new ones arrive.
 */
export const createRateLimiter = (opts: { enabled: boolean; limit: number; windowMs: number; clock: Clock }): RateLimiter => {
  const failures = new Map<string, number[]>();
  const recent = (key: string): number[] => {
    const since = opts.clock.now() - opts.windowMs;
    const list = (failures.get(key) ?? []).filter((t) => t > since);
    if (list.length) failures.set(key, list);
    else failures.delete(key);
    return list;
  };
  const sweep = (): void => {
    if (failures.size < 10_000) return;
    for (const key of [...failures.keys()]) recent(key);
  };
  return {
    blockedFor(key) {
      if (!opts.enabled) return 0;
      const list = recent(key);
      if (list.length < opts.limit) return 0;
      const oldest = list[list.length - opts.limit] as number;
      return Math.max(1, Math.ceil((oldest + opts.windowMs - opts.clock.now()) / 1000));
    },
    fail(key) {
      if (!opts.enabled) return;
      sweep();
      const list = recent(key);
      list.push(opts.clock.now());
      failures.set(key, list.slice(-opts.limit));
    },
    reset(key) {
      failures.delete(key);
    },
  };
};
