import type { Clock } from '../../common/clock.js';

/** The outcome of `RateLimiter.attempt`. */
export type Attempt =
  /** counted: go on and check the credentials; call `succeeded()` when they were right */
  | { allowed: true; succeeded(): void }
  /** refused without counting: answer 429 */
  | { allowed: false; retryAfterSeconds: number };

export interface RateLimiter {
  /**
   * Counts one attempt of `address` on `subject` (a login, a share) before it
   * is checked, and refuses it when a limit is reached. Counting and checking
   * are one synchronous step, so a parallel burst cannot pass the check
   * before the first attempts are counted. Refused attempts count nothing.
   *
   * Limits, each `limit` attempts per window:
   * - per address, whatever the subject: one address guessing one account or
   *   many;
   * - per subject, but only for addresses that have themselves failed on it
   *   within the window: distributed guessing gets one try per address once
   *   the subject is under attack, while its owner, at an address that has not
   *   failed on it, is never locked out by anyone else.
   *
   * A success refunds its own attempt, and only that: it never resets the
   * earlier failures of its address, so an own account cannot be used to
   * renew a guessing budget.
   */
  attempt(address: string, subject: string): Attempt;
}

/**
 * Attempt times per key, oldest first. Stale keys are dropped as new ones
 * arrive; beyond `maxKeys` the oldest keys are dropped, so memory stays
 * bounded under a flood of addresses (at the price of forgetting them).
 */
const createWindow = (windowMs: number, keep: number, clock: Clock, maxKeys: number) => {
  const times = new Map<string, number[]>();
  const recent = (key: string): number[] => {
    const list = times.get(key);
    if (!list) return [];
    const since = clock.now() - windowMs;
    let drop = 0;
    while (drop < list.length && (list[drop] as number) <= since) drop++;
    if (drop === list.length) {
      times.delete(key);
      return [];
    }
    if (drop > 0) list.splice(0, drop);
    return list;
  };
  const sweep = (): void => {
    if (times.size < maxKeys) return;
    for (const key of [...times.keys()]) recent(key);
    for (const key of times.keys()) {
      if (times.size < maxKeys) break;
      times.delete(key);
    }
  };
  return {
    count: (key: string): number => recent(key).length,
    /** Seconds until `key` has fewer than `n` attempts in the window; 0 when it has now. */
    waitBelow(key: string, n: number): number {
      const list = recent(key);
      if (list.length < n) return 0;
      const freeing = list[list.length - n] as number;
      return Math.max(1, Math.ceil((freeing + windowMs - clock.now()) / 1000));
    },
    add(key: string, at: number): void {
      sweep();
      const list = recent(key);
      list.push(at);
      // only the newest `keep` matter for `waitBelow(key, n <= keep)`
      if (list.length > keep) list.splice(0, list.length - keep);
      times.set(key, list);
    },
    remove(key: string, at: number): void {
      const list = times.get(key);
      const i = list ? list.lastIndexOf(at) : -1;
      if (i < 0) return;
      list!.splice(i, 1);
      if (list!.length === 0) times.delete(key);
    },
  };
};

const noLimit: Attempt = { allowed: true, succeeded: () => undefined };

/**
 * An in-process limiter: each server process counts its own attempts (see
 * `RateLimiter.attempt` for the keys). `limit` attempts per key within
 * `windowMs`.
 */
export const createRateLimiter = (opts: {
  enabled: boolean;
  limit: number;
  windowMs: number;
  clock: Clock;
  /** default 100 000 */
  maxKeys?: number;
}): RateLimiter => {
  const { limit, clock } = opts;
  const window = createWindow(opts.windowMs, limit, clock, opts.maxKeys ?? 100_000);
  return {
    attempt(address, subject) {
      if (!opts.enabled) return noLimit;
      // JSON keeps the parts apart whatever characters they hold
      const byAddress = JSON.stringify(['a', address]);
      const bySubject = JSON.stringify(['s', subject]);
      const byBoth = JSON.stringify(['as', address, subject]);
      const addressWait = window.waitBelow(byAddress, limit);
      const subjectWait =
        window.count(byBoth) > 0 ? Math.min(window.waitBelow(bySubject, limit), window.waitBelow(byBoth, 1)) : 0;
      const wait = Math.max(addressWait, subjectWait);
      if (wait > 0) return { allowed: false, retryAfterSeconds: wait };
      const at = clock.now();
      const keys = [byAddress, bySubject, byBoth];
      for (const key of keys) window.add(key, at);
      let refunded = false;
      return {
        allowed: true,
        succeeded() {
          if (refunded) return;
          refunded = true;
          for (const key of keys) window.remove(key, at);
        },
      };
    },
  };
};
