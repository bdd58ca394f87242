// Regression: the web client's lists showed file and share names as stored, so a
// name with a right-to-left override (`invoice\u202Etxt.exe`, which reads as
// `invoiceexe.txt`) or other bidi and control characters was shown spoofed.
// Every list shows names through `displayName`, which drops those characters.
import { describe, expect, it } from 'vitest';
import { displayName } from '../../../renderer/src/lib/display-name.js';

describe('displayName', () => {
  it('drops bidi controls and other control characters', () => {
    for (const c of ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\u200e', '\u200f', '\u061c']) {
      expect(displayName(`a${c}b.txt`), c.codePointAt(0)!.toString(16)).toBe('ab.txt');
    }
    expect(displayName('invoice\u202Etxt.exe')).toBe('invoicetxt.exe');
    expect(displayName('a\u0000b\nc\u007f\u0085\u2028\ufeff.txt')).toBe('abc.txt');
  });

  it('keeps every other character, composed', () => {
    expect(displayName('Grüße ☃ 👩‍💻 שלום.txt')).toBe('Grüße ☃ 👩‍💻 שלום.txt');
    expect(displayName('Gru\u0308\u00dfe')).toBe('Grüße');
  });

  it('is empty for nothing, so a list can fall back to its own label', () => {
    expect(displayName(null)).toBe('');
    expect(displayName(undefined)).toBe('');
    expect(displayName('\u202e\u2066')).toBe('');
  });
});
