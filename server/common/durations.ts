/**
 * Durations as the configuration writes them: a number of milliseconds, or a
 * number and a unit (`4 minutes`, `14 days`, `10s`, `1.5 h`). Returns
 * milliseconds, or `undefined` when the value is not a duration.
 */
const unitMs: Array<[RegExp, number]> = [
  [/^(ms|millis|milliseconds?)$/, 1],
  [/^(s|secs?|seconds?)$/, 1000],
  [/^(m|mins?|minutes?)$/, 60_000],
  [/^(h|hours?)$/, 3_600_000],
  [/^(d|days?)$/, 86_400_000],
  [/^(w|weeks?)$/, 7 * 86_400_000],
];

export const parseDuration = (value: unknown): number | undefined => {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(value);
  if (!m) return undefined;
  const unit = (m[2] ?? '').toLowerCase();
  const factor = unit === '' ? 1 : unitMs.find(([re]) => re.test(unit))?.[1];
  if (factor === undefined) return undefined;
  const ms = Number(m[1]) * factor;
  return Number.isFinite(ms) && ms <= Number.MAX_SAFE_INTEGER ? Math.round(ms) : undefined;
};

/** `14 days`, `8 minutes`, `90 seconds`, `1500 ms`: the largest unit that divides evenly. */
export const formatDuration = (ms: number): string => {
  const units: Array<[string, number]> = [
    ['days', 86_400_000],
    ['hours', 3_600_000],
    ['minutes', 60_000],
    ['seconds', 1000],
  ];
  for (const [name, f] of units) {
    if (ms >= f && ms % f === 0) {
      const n = ms / f;
      return `${n} ${n === 1 ? name.slice(0, -1) : name}`;
    }
  }
  return `${ms} ms`;
};
