// Regression: the ASCII fallback of `Content-Disposition` folded fullwidth
// `．．／x` into `filename="../x"`, a path that leaves the download folder of a
// client trusting the fallback; and bidi controls (U+202E and friends, which
// make `txt.exe` read as `exe.txt`) survived in `filename*`, in ZIP entry names
// and in the names stored at upload. Every name the server shows or sends is
// cleaned by one function first.
import { describe, expect, it } from 'vitest';
import { asciiFallback, contentDisposition } from '../../../server/http/content-disposition.js';
import { safeEntryName, uniqueEntryNames } from '../../../server/core/downloads/zip-names.js';
import { cleanFileName, cleanName } from '../../../server/core/uploads/file-name.js';

const BIDI = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\u200e', '\u200f', '\u061c'];
const spoofed = 'invoice\u202Etxt.exe';
// eslint-disable-next-line no-control-regex -- looking for control characters is the point
const CONTROL_OR_BIDI = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff]/;

describe('cleanName', () => {
  it('strips bidi controls and other control characters, keeping everything else', () => {
    for (const c of BIDI) expect(cleanName(`a${c}b.txt`), c.codePointAt(0)!.toString(16)).toBe('ab.txt');
    expect(cleanName('a\u0000b\r\nc\u007f\u0085\u2028\u2029\ufeff.txt')).toBe('abc.txt');
    expect(cleanName('Grüße ☃ 👩‍💻.txt')).toBe('Grüße ☃ 👩‍💻.txt');
  });

  it('composes decomposed letters (NFC), as macOS sends them', () => {
    expect(cleanName('Gru\u0308\u00dfe.txt')).toBe('Grüße.txt');
  });
});

describe('Content-Disposition fallback', () => {
  it('never contains a separator nor starts with a dot, whatever the compatibility forms', () => {
    for (const raw of ['．．／x', '．．＼x', '..／..／etc／passwd', '../x', '..\\x', '.', '..', '﹨x', '․․/x', '‥/x']) {
      const fallback = asciiFallback(raw);
      expect(fallback, raw).not.toMatch(/[/\\"%]/);
      expect(fallback.startsWith('.'), raw).toBe(false);
      const header = contentDisposition('attachment', raw);
      const quoted = /filename="([^"]*)"/.exec(header)![1]!;
      expect(quoted, raw).not.toMatch(/[/\\]/);
      expect(quoted.startsWith('.'), raw).toBe(false);
    }
    expect(asciiFallback('．．／x')).toBe('___x');
    expect(asciiFallback('ｒｅｐｏｒｔ.pdf')).toBe('report.pdf');
  });

  it('sends neither bidi nor control characters, in the fallback or in filename*', () => {
    const header = contentDisposition('attachment', spoofed);
    expect(header).toBe(`attachment; filename="invoicetxt.exe"; filename*=UTF-8''invoicetxt.exe`);
    for (const c of BIDI) {
      const h = contentDisposition('inline', `a${c}b.png`);
      expect(h).toBe(`inline; filename="ab.png"; filename*=UTF-8''ab.png`);
    }
  });

  it('sends no separator in filename* either, and never a bare dot name', () => {
    expect(contentDisposition('attachment', '../../x.txt')).toBe(`attachment; filename="___.._x.txt"; filename*=UTF-8''.._.._x.txt`);
    expect(contentDisposition('attachment', '..')).toBe(`attachment; filename="download"; filename*=UTF-8''download`);
    expect(contentDisposition('attachment', '\u202e')).toBe(`attachment; filename="download"; filename*=UTF-8''download`);
  });
});

describe('ZIP entry names', () => {
  it('carry no bidi or control characters', () => {
    expect(safeEntryName(spoofed, 'id')).toBe('invoicetxt.exe');
    for (const c of BIDI) expect(safeEntryName(`a${c}b.txt`, 'id')).toBe('ab.txt');
    expect(uniqueEntryNames([{ name: 'a.txt', fallback: 'f' }, { name: 'a\u202e.txt', fallback: 'f' }])).toEqual(['a.txt', 'a (1).txt']);
  });

  it('turn fullwidth separators into `_` like ASCII ones', () => {
    expect(safeEntryName('．．／x', 'id')).not.toMatch(/[/\\／＼﹨]/);
    expect(safeEntryName('a＼b', 'id')).toBe('a_b');
  });

  it('turn division and fraction slashes into `_`, and dot leaders into one dot', () => {
    expect(safeEntryName('..∕..∕etc', 'id')).toBe('_._etc');
    expect(safeEntryName('a⁄b∖c⧸d⧹e', 'id')).toBe('a_b_c_d_e');
    expect(safeEntryName('․․∕x', 'id')).toBe('_x');
    expect(safeEntryName('a‥b．．c﹒﹒d.txt', 'id')).toBe('a.b.c.d.txt');
  });
});

describe('names stored at upload', () => {
  it('carry no bidi or control characters', () => {
    expect(cleanFileName(spoofed)).toBe('invoicetxt.exe');
    for (const c of BIDI) expect(cleanFileName(`dir/a${c}b.txt`)).toBe('ab.txt');
    expect(cleanFileName('\u202e')).toBe('file');
    expect(cleanFileName(`x/${'\u202e'}..`)).toBe('file');
    expect(CONTROL_OR_BIDI.test(cleanFileName('a\u2066\u0085b'))).toBe(false);
  });
});
