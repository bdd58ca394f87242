import { describe, expect, it } from 'vitest';
import { etagMatches, ifRangeAllows, parseRange } from '../../../server/http/range.js';

const CAP = 100;

describe('parseRange', () => {
  it('serves the whole file without a usable single byte range', () => {
    for (const h of [undefined, '', 'items=0-5', 'bytes', 'bytes=abc', 'bytes=1-x', 'bytes=0-1,5-6', 'bytes=-', 'bytes=--5']) {
      expect(parseRange(h, 1000, CAP), String(h)).toEqual({ kind: 'full' });
    }
  });

  it('answers closed ranges, clamped to the last byte', () => {
    expect(parseRange('bytes=0-0', 1000, CAP)).toEqual({ kind: 'partial', start: 0, end: 0 });
    expect(parseRange('bytes=999-999', 1000, CAP)).toEqual({ kind: 'partial', start: 999, end: 999 });
    expect(parseRange('bytes=990-5000', 1000, CAP)).toEqual({ kind: 'partial', start: 990, end: 999 });
    expect(parseRange(' bytes = 10-19 ', 1000, CAP)).toEqual({ kind: 'partial', start: 10, end: 19 });
    // a closed range is not capped
    expect(parseRange('bytes=0-499', 1000, CAP)).toEqual({ kind: 'partial', start: 0, end: 499 });
  });

  it('caps open ranges at the chunk size', () => {
    expect(parseRange('bytes=0-', 1000, CAP)).toEqual({ kind: 'partial', start: 0, end: 99 });
    expect(parseRange('bytes=950-', 1000, CAP)).toEqual({ kind: 'partial', start: 950, end: 999 });
  });

  it('answers suffix ranges', () => {
    expect(parseRange('bytes=-1', 1000, CAP)).toEqual({ kind: 'partial', start: 999, end: 999 });
    expect(parseRange('bytes=-300', 1000, CAP)).toEqual({ kind: 'partial', start: 700, end: 999 });
    expect(parseRange('bytes=-5000', 1000, CAP)).toEqual({ kind: 'partial', start: 0, end: 999 });
  });

  it('refuses unsatisfiable ranges', () => {
    for (const h of ['bytes=1000-', 'bytes=1000-1001', 'bytes=5-2', 'bytes=-0']) {
      expect(parseRange(h, 1000, CAP), h).toEqual({ kind: 'unsatisfiable' });
    }
    expect(parseRange('bytes=0-', 0, CAP)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=-5', 0, CAP)).toEqual({ kind: 'unsatisfiable' });
  });
});

describe('conditional headers', () => {
  it('matches If-None-Match lists, weak tags and *', () => {
    expect(etagMatches('"abc"', '"abc"')).toBe(true);
    expect(etagMatches('"x", W/"abc"', '"abc"')).toBe(true);
    expect(etagMatches('*', '"abc"')).toBe(true);
    expect(etagMatches('"abd"', '"abc"')).toBe(false);
    expect(etagMatches(undefined, '"abc"')).toBe(false);
  });

  it('honours a range under If-Range only for the current tag or date', () => {
    const date = new Date(0).toUTCString();
    expect(ifRangeAllows(undefined, '"a"', date)).toBe(true);
    expect(ifRangeAllows('"a"', '"a"', date)).toBe(true);
    expect(ifRangeAllows('"b"', '"a"', date)).toBe(false);
    expect(ifRangeAllows('W/"a"', '"a"', date)).toBe(false);
    expect(ifRangeAllows(date, undefined, date)).toBe(true);
    expect(ifRangeAllows('Tue, 01 Jan 2030 00:00:00 GMT', undefined, date)).toBe(false);
  });
});
