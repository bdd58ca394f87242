// Formatting of sizes, dates and durations for display.

const units = ['B', 'KB', 'MB', 'GB', 'TB'];

/** `1536` → `1.5 KB` (binary multiples, one decimal). */
export function formatSize(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

/** A date and time in the given locale and IANA time zone. */
export function formatDateTime(ms: number, locale: string, timeZone: string): string {
  try {
    return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(ms);
  } catch {
    // An unknown zone name (e.g. from an old browser): fall back to UTC.
    return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(ms);
  }
}

export const MINUTE = 60 * 1000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** A duration as its largest whole unit: `{ n: 7, unit: 'days' }`. */
export function durationParts(ms: number): { n: number; unit: 'days' | 'hours' | 'minutes' } {
  if (ms >= DAY && ms % DAY === 0) return { n: ms / DAY, unit: 'days' };
  if (ms >= HOUR && ms % HOUR === 0) return { n: ms / HOUR, unit: 'hours' };
  return { n: Math.round(ms / MINUTE), unit: 'minutes' };
}

/** Bytes per second as text: `2.3 MB/s`. */
export function formatSpeed(bytesPerSecond: number): string {
  return `${formatSize(Math.max(0, Math.round(bytesPerSecond)))}/s`;
}
