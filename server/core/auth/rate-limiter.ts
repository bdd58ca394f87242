import type { Clock } from '../../common/clock.js';
import { addressGroup } from '../../common/ip-ranges.js';
import type { Hit, HitStore } from './hit-store.repository.js';

/** The outcome of `RateLimiter.attempt`. */
export type Attempt =
  /** counted: go on and check the credentials; call `succeeded()` when they were right */
  | { allowed: true; succeeded(): Promise<void> }
  /** refused without counting: answer 429 */
  | { allowed: false; retryAfterSeconds: number };

export interface RateLimiter {
  /**
   * Counts one attempt of `address` on `subject` (a login, a share) before it
   * is checked, and refuses it when a limit is reached: the attempt is stored
   * first and the counts read after, so a parallel burst cannot pass the check
   * before the first attempts are counted. A refused attempt is taken back.
   *
   * Addresses are counted by `addressGroup` (an IPv6 address by its /64).
   * Limits, within the window:
   * - `limit` attempts per address, whatever the subject: one address
   *   guessing one account or many;
   * - `allAddresses` attempts per subject from every address together, so no
   *   number of addresses multiplies the guesses at one account; an address
   *   where the subject succeeded within `rememberMs` is let in beyond it, so
   *   its owner is not locked out by anyone else.
   *
   * A success refunds its own attempt, and only that: it never resets the
   * earlier failures of its address, so an own account cannot be used to
   * renew a guessing budget.
   */
  attempt(address: string, subject: string): Promise<Attempt>;
}

/** A plain count per address: `take` counts one and refuses beyond `limit` in the window. */
export interface AddressLimiter {
  /** Counts one action of `address`; refused (and not counted) beyond the limit. */
  take(address: string): Promise<{ allowed: true } | { allowed: false; retryAfterSeconds: number }>;
}

const noLimit: Attempt = { allowed: true, succeeded: () => Promise.resolve() };

/** Seconds until `times` (oldest first) has fewer than `n` entries in a window of `windowMs`; 0 when it has now. */
const waitBelow = (times: readonly number[], n: number, windowMs: number, now: number): number => {
  if (times.length < n) return 0;
  const freeing = times[times.length - n]!;
  return Math.max(1, Math.ceil((freeing + windowMs - now) / 1000));
};

/** `times` without one occurrence of `own` (the attempt being refused). */
const without = (times: readonly number[], own: number): number[] => {
  const i = times.lastIndexOf(own);
  return i < 0 ? [...times] : [...times.slice(0, i), ...times.slice(i + 1)];
};

export const createRateLimiter = (opts: {
  enabled: boolean;
  /** attempts per address in the window */
  limit: number;
  /** attempts per subject from all addresses in the window */
  allAddresses: number;
  windowMs: number;
  /** how long an address where the subject succeeded is let in beyond `allAddresses` */
  rememberMs: number;
  /** tells this limiter's keys apart from others' in a shared store */
  name: string;
  store: HitStore;
  clock: Clock;
}): RateLimiter => {
  const { limit, allAddresses, windowMs, store, clock } = opts;
  return {
    async attempt(address, subject) {
      if (!opts.enabled) return noLimit;
      const group = addressGroup(address);
      // JSON keeps the parts apart whatever characters they hold
      const byAddress = JSON.stringify([opts.name, 'a', group]);
      const bySubject = JSON.stringify([opts.name, 's', subject]);
      const known = JSON.stringify([opts.name, 'ok', group, subject]);
      const at = clock.now();
      const hits = await store.add([byAddress, bySubject], at, at + windowMs);
      const since = at - windowMs;
      const t = await store.times([
        { key: byAddress, since },
        { key: bySubject, since },
        { key: known, since: at - opts.rememberMs },
      ]);
      const addressTimes = t.get(byAddress) ?? [];
      const subjectTimes = t.get(bySubject) ?? [];
      const isKnown = (t.get(known) ?? []).length > 0;
      const overAddress = addressTimes.length > limit;
      const overSubject = !isKnown && subjectTimes.length > allAddresses;
      if (overAddress || overSubject) {
        await store.remove(hits);
        const wait = Math.max(
          overAddress ? waitBelow(without(addressTimes, at), limit, windowMs, at) : 0,
          overSubject ? waitBelow(without(subjectTimes, at), allAddresses, windowMs, at) : 0,
        );
        return { allowed: false, retryAfterSeconds: Math.max(1, wait) };
      }
      let refunded = false;
      return {
        allowed: true,
        async succeeded() {
          if (refunded) return;
          refunded = true;
          await store.remove(hits);
          const now = clock.now();
          await store.add([known], now, now + opts.rememberMs);
        },
      };
    },
  };
};

/** `limit` actions per address (grouped as by `RateLimiter`) within `windowMs`. */
export const createAddressLimiter = (opts: {
  enabled: boolean;
  limit: number;
  windowMs: number;
  name: string;
  store: HitStore;
  clock: Clock;
}): AddressLimiter => ({
  async take(address) {
    if (!opts.enabled) return { allowed: true };
    const key = JSON.stringify([opts.name, 'a', addressGroup(address)]);
    const at = opts.clock.now();
    const hits: Hit[] = await opts.store.add([key], at, at + opts.windowMs);
    const times = (await opts.store.times([{ key, since: at - opts.windowMs }])).get(key) ?? [];
    if (times.length <= opts.limit) return { allowed: true };
    await opts.store.remove(hits);
    return { allowed: false, retryAfterSeconds: waitBelow(without(times, at), opts.limit, opts.windowMs, at) };
  },
});
