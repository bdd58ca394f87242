/**
 * Filled-in descriptions, kept by a hash of everything they depend on, so a
 * description is rendered once per change rather than once per view. Bounded
 * by the number of entries and their total length; the least recently used
 * go first.
 */
import { createHash } from 'node:crypto';

export interface TextCache {
  /** The text kept for `parts`, or `make()`'s result, now kept. */
  get(parts: unknown, make: () => string): string;
  readonly size: number;
  /** total characters kept */
  readonly length: number;
}

export const createTextCache = (maxEntries: number, maxLength: number): TextCache => {
  const entries = new Map<string, string>();
  let length = 0;
  return {
    get(parts, make) {
      const key = createHash('sha256').update(JSON.stringify(parts)).digest('base64');
      const hit = entries.get(key);
      if (hit !== undefined) {
        entries.delete(key);
        entries.set(key, hit);
        return hit;
      }
      const text = make();
      if (text.length > maxLength) return text;
      entries.set(key, text);
      length += text.length;
      for (const [k, v] of entries) {
        if (entries.size <= maxEntries && length <= maxLength) break;
        entries.delete(k);
        length -= v.length;
      }
      return text;
    },
    get size() {
      return entries.size;
    },
    get length() {
      return length;
    },
  };
};
