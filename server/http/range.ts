/**
 * Single-range requests (RFC 9110 §14). Decisions: a header that is not a
 * `bytes` range or does not parse is ignored (the whole file, 200); several
 * ranges are answered with the whole file (200), which the RFC allows; an
 * open range `bytes=a-` returns at most `openRangeCap` bytes.
 */
export type RangeResult =
  | { kind: 'full' }
  /** `end` is inclusive, as in `Content-Range` */
  | { kind: 'partial'; start: number; end: number }
  | { kind: 'unsatisfiable' };

const FULL: RangeResult = { kind: 'full' };
const UNSATISFIABLE: RangeResult = { kind: 'unsatisfiable' };
const digits = /^\d{1,15}$/;

export const parseRange = (header: string | undefined, length: number, openRangeCap: number): RangeResult => {
  if (header === undefined) return FULL;
  const m = /^\s*bytes\s*=\s*(.*)$/i.exec(header);
  if (!m) return FULL;
  const specs = m[1]!.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (specs.length !== 1) return FULL;
  const spec = specs[0]!;
  const dash = spec.indexOf('-');
  if (dash < 0) return FULL;
  const first = spec.slice(0, dash).trim();
  const last = spec.slice(dash + 1).trim();
  if (first === '') {
    // suffix range: the last `n` bytes
    if (!digits.test(last)) return FULL;
    const n = Number(last);
    if (n === 0 || length === 0) return UNSATISFIABLE;
    return { kind: 'partial', start: Math.max(0, length - n), end: length - 1 };
  }
  if (!digits.test(first) || (last !== '' && !digits.test(last))) return FULL;
  const start = Number(first);
  if (last !== '' && Number(last) < start) return UNSATISFIABLE;
  if (start >= length) return UNSATISFIABLE;
  const end = last === '' ? Math.min(length - 1, start + Math.max(1, openRangeCap) - 1) : Math.min(length - 1, Number(last));
  return { kind: 'partial', start, end };
};

/** Whether an `If-None-Match` header matches the entity tag (weak comparison, `*` matches). */
export const etagMatches = (header: string | undefined, etag: string): boolean => {
  if (!header) return false;
  const bare = (t: string) => t.trim().replace(/^W\//, '');
  return header.split(',').some((t) => t.trim() === '*' || bare(t) === bare(etag));
};

/**
 * Whether a range may be honoured under `If-Range`: without the header, yes;
 * with an entity tag, only a strong match; with a date, only the exact
 * `Last-Modified` date (never when there is none).
 */
export const ifRangeAllows = (header: string | undefined, etag: string | undefined, lastModified: string | undefined): boolean => {
  if (!header) return true;
  const v = header.trim();
  if (v.startsWith('"') || v.startsWith('W/')) return etag !== undefined && v === etag;
  return lastModified !== undefined && v === lastModified;
};
