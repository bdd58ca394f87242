// The numbers an upload shows: speed over the last seconds, time remaining, and which
// chosen files cannot fit into the room a share or upload link has left.

/** How far back the speed looks. */
const SPEED_WINDOW_MS = 5000;
/** The least time the samples must span before a speed is shown. */
const MIN_SPAN_MS = 1000;

/**
 * The average speed over the last `SPEED_WINDOW_MS`, fed with the bytes sent so far at
 * points in time. Fed on a timer as well as on progress, so a stalled upload shows its
 * speed falling to 0 instead of the last value frozen.
 */
export class SpeedMeter {
  private samples: { t: number; bytes: number }[] = [];

  /** Records `bytes` sent in total at time `t` (ms); fewer bytes than before starts over. */
  add(t: number, bytes: number): void {
    const last = this.samples[this.samples.length - 1];
    if (last && bytes < last.bytes) this.samples = [];
    this.samples.push({ t, bytes });
    // keep one sample older than the window, so the window is always spanned
    while (this.samples.length > 2 && this.samples[1]!.t <= t - SPEED_WINDOW_MS) this.samples.shift();
  }

  /** Bytes per second at time `t`, or null while the samples span less than a second. */
  rate(t: number): number | null {
    const first = this.samples[0];
    const last = this.samples[this.samples.length - 1];
    if (!first || !last) return null;
    const from = Math.max(first.t, t - SPEED_WINDOW_MS);
    const span = t - from;
    if (span < MIN_SPAN_MS) return null;
    // the bytes at `from`, read off the line between the samples around it
    const i = this.samples.findIndex((s) => s.t >= from);
    const after = this.samples[i] ?? last;
    const before = this.samples[Math.max(0, i - 1)]!;
    const bytesAtFrom = after.t === before.t ? after.bytes : before.bytes + ((after.bytes - before.bytes) * (from - before.t)) / (after.t - before.t);
    return Math.max(0, ((last.bytes - bytesAtFrom) * 1000) / span);
  }

  reset(): void {
    this.samples = [];
  }
}

/** Whole seconds until `remaining` bytes are sent at `rate` bytes/s; null when unknown or stalled. */
export function secondsLeft(remaining: number, rate: number | null): number | null {
  if (rate === null || rate <= 0) return null;
  return Math.max(1, Math.ceil(remaining / rate));
}

/** A time remaining as the units it is shown in: `42 s`, `7 min`, `1 h 5 min`. */
export function etaParts(seconds: number): { unit: 'seconds' | 'minutes' | 'hours'; n: number; m: number } {
  if (seconds < 60) return { unit: 'seconds', n: seconds, m: 0 };
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return { unit: 'minutes', n: minutes, m: 0 };
  return { unit: 'hours', n: Math.floor(minutes / 60), m: minutes % 60 };
}

export interface Refusal {
  /** index in the chosen files */
  index: number;
  /** `too-large`: larger than all the room there is; `no-room`: the files before it took the room */
  reason: 'too-large' | 'no-room';
}

/**
 * The files that would be refused, in order: each file takes its size from `room`
 * unless it is `held` (an upload being continued, whose size the server reserved
 * already); a file that does not fit into what is left is refused and the next ones
 * are still tried.
 */
export function refusals(sizes: number[], room: number, held: boolean[] = []): Refusal[] {
  let left = room;
  const out: Refusal[] = [];
  sizes.forEach((size, index) => {
    if (held[index]) return;
    if (size > room) out.push({ index, reason: 'too-large' });
    else if (size > left) out.push({ index, reason: 'no-room' });
    else left -= size;
  });
  return out;
}
