import { describe, expect, it } from 'vitest';
import { createTextCache } from '../../../server/core/shares/description-cache.js';

describe('the cache of filled-in descriptions', () => {
  it('makes a text once per distinct input', () => {
    const cache = createTextCache(10, 1000);
    let made = 0;
    const make = (t: string) => () => (made++, t);
    expect(cache.get(['a', 1], make('A'))).toBe('A');
    expect(cache.get(['a', 1], make('other'))).toBe('A');
    expect(cache.get(['a', 2], make('B'))).toBe('B');
    expect(made).toBe(2);
  });

  it('keeps at most its number of entries and characters, dropping the least recently used', () => {
    const cache = createTextCache(3, 10);
    for (const k of ['a', 'b', 'c']) cache.get(k, () => k);
    cache.get('a', () => 'x'); // a is now the most recent
    cache.get('d', () => 'd');
    expect(cache.size).toBe(3);
    expect(cache.get('b', () => 'again')).toBe('again'); // b was dropped
    expect(cache.get('a', () => 'x')).toBe('a');
    cache.get('long', () => '123456789');
    expect(cache.length).toBeLessThanOrEqual(10);
    expect(cache.get('huge', () => 'x'.repeat(11))).toHaveLength(11);
    expect(cache.length).toBeLessThanOrEqual(10);
  });
});
