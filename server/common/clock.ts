/** Time, behind an interface so tests can move it. */
export interface Clock {
  /** epoch milliseconds */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock for tests: starts at `start` and moves only when told. */
export const manualClock = (start = Date.now()): Clock & { advance(ms: number): void; set(ms: number): void } => {
  let t = start;
  return {
    now: () => t,
    advance: (ms) => {
      t += ms;
    },
    set: (ms) => {
      t = ms;
    },
  };
};
