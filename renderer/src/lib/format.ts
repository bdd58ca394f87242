// Formatting of sizes, numbers, dates and durations for display.
import { i18n, localeOf, type Language } from '../i18n';

const units = ['B', 'KB', 'MB', 'GB', 'TB'];
// French counts octets
const frenchUnits = ['o', 'Ko', 'Mo', 'Go', 'To'];

/** The BCP 47 tag of the shown texts; reading it makes a template calling a formatter follow a language change. */
function currentLocale(): string {
  return localeOf(i18n.global.locale.value as Language);
}

/** A number in the locale's digits and separators: `12,345` in English, `12.345` in German. */
export function formatNumber(n: number, locale = currentLocale(), fractionDigits = 0): string {
  return new Intl.NumberFormat(locale, { minimumFractionDigits: fractionDigits, maximumFractionDigits: fractionDigits }).format(n);
}

/** `1536` → `1.5 KB` in English, `1,5 KB` in German, `1,5 Ko` in French (binary multiples, one decimal). */
export function formatSize(bytes: number, locale = currentLocale()): string {
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const names = locale.startsWith('fr') ? frenchUnits : units;
  return `${formatNumber(value, locale, unit === 0 ? 0 : 1)} ${names[unit]}`;
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

const MINUTE = 60 * 1000;
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
