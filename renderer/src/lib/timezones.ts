// The IANA time zones the browser knows, and the one the browser is in.

const FALLBACK = ['UTC', 'Europe/Berlin', 'Europe/London', 'Europe/Paris', 'America/New_York', 'Asia/Tokyo'];

/** Every IANA zone of the browser (sorted), with UTC first. */
export function allTimezones(): string[] {
  const withList = Intl as typeof Intl & { supportedValuesOf?: (key: 'timeZone') => string[] };
  const zones = withList.supportedValuesOf ? withList.supportedValuesOf('timeZone') : FALLBACK;
  return ['UTC', ...zones.filter((z) => z !== 'UTC').sort()];
}

export function browserTimezone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** Zones containing every word of `query` (case-insensitive; `_` and `/` count as spaces). */
export function filterTimezones(zones: string[], query: string): string[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return zones;
  return zones.filter((z) => {
    const name = z.toLowerCase().replace(/[_/]/g, ' ');
    return words.every((w) => name.includes(w));
  });
}
