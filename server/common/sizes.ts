/**
 * Byte sizes as the configuration writes them: a number of bytes, or a number
 * with a binary unit (`512K`, `10M`, `1.5G`, `2T`; `KB`, `MiB` and lower case
 * accepted). Returns `undefined` for anything else.
 */
const units: Record<string, number> = { '': 1, b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 };

export const parseSize = (value: unknown): number | undefined => {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmgtb]?)(?:i?b)?\s*$/i.exec(value);
  if (!m) return undefined;
  const n = Number(m[1]) * (units[(m[2] ?? '').toLowerCase()] ?? NaN);
  return Number.isFinite(n) && n <= Number.MAX_SAFE_INTEGER ? Math.round(n) : undefined;
};

/** Human-readable size, e.g. `1.5G`, `512K`, `17B` (the unit letters `parseSize` reads). */
export const formatSize = (bytes: number): string => {
  const order = ['T', 'G', 'M', 'K'] as const;
  for (const u of order) {
    const f = units[u.toLowerCase()] as number;
    if (bytes >= f) {
      const v = bytes / f;
      return `${Number.isInteger(v) ? v : v.toFixed(2).replace(/0+$/, '')}${u}`;
    }
  }
  return `${bytes}B`;
};
