// The numbers an upload shows are honest: the speed is the average of the last five
// seconds (not of the whole upload, not the last value frozen when bytes stop), the time
// left follows from it, and the check before sending refuses exactly the files that
// cannot fit into the room a share or upload link has left.
import { describe, expect, it } from 'vitest';
import { etaParts, refusals, secondsLeft, SpeedMeter } from '../../../renderer/src/lib/upload-progress.js';

const MB = 1_000_000;

/** Feeds `meter` a steady `rate` (bytes/s) from `from` to `to` ms, a sample every 250 ms; returns the bytes at `to`. */
const feed = (meter: SpeedMeter, from: number, to: number, startBytes: number, rate: number): number => {
  let bytes = startBytes;
  for (let t = from; t <= to; t += 250) {
    bytes = startBytes + (rate * (t - from)) / 1000;
    meter.add(t, bytes);
  }
  return bytes;
};

describe('SpeedMeter', () => {
  it('knows no speed before a second has passed, then the steady rate', () => {
    const m = new SpeedMeter();
    feed(m, 0, 750, 0, 2 * MB);
    expect(m.rate(750)).toBeNull();
    feed(m, 1000, 3000, 2 * MB, 2 * MB);
    expect(m.rate(3000)).toBeCloseTo(2 * MB, -3);
  });

  it('averages the last five seconds only', () => {
    const m = new SpeedMeter();
    const at10 = feed(m, 0, 10_000, 0, 1 * MB);
    // half of the window at the new speed: the average of both
    const at12 = feed(m, 10_000, 12_500, at10, 3 * MB);
    expect(m.rate(12_500)).toBeCloseTo(2 * MB, -4);
    // the whole window at the new speed: the old one is forgotten
    feed(m, 12_500, 15_000, at12, 3 * MB);
    expect(m.rate(15_000)).toBeCloseTo(3 * MB, -4);
  });

  it('falls to 0 within the window when the bytes stop, instead of showing the last speed', () => {
    const m = new SpeedMeter();
    const bytes = feed(m, 0, 10_000, 0, 4 * MB);
    expect(m.rate(10_000)).toBeCloseTo(4 * MB, -4);
    expect(m.rate(12_500)).toBeCloseTo(2 * MB, -4);
    m.add(15_000, bytes);
    expect(m.rate(15_000)).toBe(0);
  });

  it('starts over when the bytes go back (a lost request: the server holds less than was sent)', () => {
    const m = new SpeedMeter();
    const bytes = feed(m, 0, 5000, 0, 4 * MB);
    m.add(5250, bytes - 3 * MB);
    expect(m.rate(5250)).toBeNull();
  });

  it('forgets everything on reset', () => {
    const m = new SpeedMeter();
    feed(m, 0, 5000, 0, 4 * MB);
    m.reset();
    expect(m.rate(5000)).toBeNull();
  });
});

describe('time left', () => {
  it('divides what is left by the speed, rounded up to whole seconds', () => {
    expect(secondsLeft(100 * MB, 10 * MB)).toBe(10);
    expect(secondsLeft(100 * MB + 1, 10 * MB)).toBe(11);
    expect(secondsLeft(1, 10 * MB)).toBe(1);
  });

  it('is unknown without a speed or when nothing moves', () => {
    expect(secondsLeft(MB, null)).toBeNull();
    expect(secondsLeft(MB, 0)).toBeNull();
  });

  it('is shown in seconds, minutes, or hours and minutes', () => {
    expect(etaParts(42)).toEqual({ unit: 'seconds', n: 42, m: 0 });
    expect(etaParts(60)).toEqual({ unit: 'minutes', n: 1, m: 0 });
    expect(etaParts(150)).toEqual({ unit: 'minutes', n: 3, m: 0 });
    expect(etaParts(3570)).toEqual({ unit: 'hours', n: 1, m: 0 });
    expect(etaParts(3900)).toEqual({ unit: 'hours', n: 1, m: 5 });
  });
});

describe('refusals before sending', () => {
  it('refuses a file larger than all the room, and one that the files before it leave no room for', () => {
    expect(refusals([30, 120, 50, 30], 100)).toEqual([
      { index: 1, reason: 'too-large' },
      { index: 3, reason: 'no-room' },
    ]);
  });

  it('takes a file that fills the room exactly, and smaller ones after a refused one', () => {
    expect(refusals([100], 100)).toEqual([]);
    expect(refusals([60, 50, 40], 100)).toEqual([{ index: 1, reason: 'no-room' }]);
  });

  it('does not count uploads being continued: the server holds their room already', () => {
    expect(refusals([90, 20], 30, [true, false])).toEqual([]);
    expect(refusals([90, 40], 30, [true, false])).toEqual([{ index: 1, reason: 'too-large' }]);
  });

  it('refuses everything when no room is left', () => {
    expect(refusals([1, 2], 0)).toEqual([
      { index: 0, reason: 'too-large' },
      { index: 1, reason: 'too-large' },
    ]);
  });
});
