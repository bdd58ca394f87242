import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { asciiFallback, contentDisposition, isInlineSafe } from '../../../server/http/content-disposition.js';
import { methodForType, sampleCompresses, shouldStore } from '../../../server/core/downloads/zip-compress.js';
import { safeEntryName, uniqueEntryNames } from '../../../server/core/downloads/zip-names.js';

describe('ZIP entry names', () => {
  it('never leave the archive root', () => {
    expect(safeEntryName('../../etc/passwd', 'id')).toBe('_._etc_passwd');
    expect(safeEntryName('..', 'id1')).toBe('id1');
    expect(safeEntryName('/abs/path.txt', 'id')).toBe('_abs_path.txt');
    expect(safeEntryName('C:\\Windows\\x.txt', 'id')).toBe('C__Windows_x.txt');
    expect(safeEntryName('a\u0000b\nc\u007f.txt', 'id')).toBe('abc.txt');
    expect(safeEntryName('.hidden', 'id')).toBe('hidden');
    expect(safeEntryName('trailing. . ', 'id')).toBe('trailing');
    expect(safeEntryName('', 'the-id')).toBe('the-id');
    for (const n of ['../x', '..\\x', '/x', 'a/../../b', '....//....//x']) {
      const safe = safeEntryName(n, 'id');
      expect(safe).not.toMatch(/[/\\]/);
      expect(safe.startsWith('.')).toBe(false);
      expect(safe).not.toContain('..');
    }
  });

  it('keeps long names within 240 bytes with their extension', () => {
    const name = `${'ä'.repeat(300)}.txt`;
    const safe = safeEntryName(name, 'id');
    expect(Buffer.byteLength(safe)).toBeLessThanOrEqual(240);
    expect(safe.endsWith('.txt')).toBe(true);
  });

  it('makes duplicates unique before the extension, ignoring case', () => {
    expect(uniqueEntryNames(['a.txt', 'a.txt', 'A.TXT', 'b', 'b', 'a (1).txt'].map((name) => ({ name, fallback: 'f' })))).toEqual([
      'a.txt',
      'a (1).txt',
      'A (2).TXT',
      'b',
      'b (1)',
      'a (1) (1).txt',
    ]);
  });
});

describe('store or deflate', () => {
  it('stores compressed types and deflates text', () => {
    expect(methodForType('image/jpeg')).toBe('store');
    expect(methodForType('video/mp4')).toBe('store');
    expect(methodForType('audio/mpeg')).toBe('store');
    expect(methodForType('application/zip')).toBe('store');
    expect(methodForType('application/gzip')).toBe('store');
    expect(methodForType('application/x-7z-compressed')).toBe('store');
    expect(methodForType('application/vnd.openxmlformats-officedocument.wordprocessingml.document')).toBe('store');
    expect(methodForType('image/svg+xml')).toBe('deflate');
    expect(methodForType('image/bmp')).toBe('deflate');
    expect(methodForType('text/plain; charset=utf-8')).toBe('deflate');
    expect(methodForType('application/json')).toBe('deflate');
    expect(methodForType('application/octet-stream')).toBe('sample');
  });

  it('samples unknown content: random bytes are stored, repetitive bytes deflated', () => {
    expect(sampleCompresses(randomBytes(64 * 1024))).toBe(false);
    expect(sampleCompresses(Buffer.alloc(64 * 1024, 'abcabc'))).toBe(true);
    expect(shouldStore('application/octet-stream', randomBytes(64 * 1024))).toBe(true);
    expect(shouldStore('application/octet-stream', Buffer.alloc(64 * 1024, 'x'))).toBe(false);
    expect(shouldStore('text/plain', randomBytes(64 * 1024))).toBe(false);
  });
});

describe('Content-Disposition', () => {
  it('has an ASCII fallback and an RFC 8187 filename*', () => {
    expect(contentDisposition('attachment', 'Grüße "1".txt')).toBe(
      `attachment; filename="Gruße _1_.txt"; filename*=UTF-8''Gr%C3%BC%C3%9Fe%20%221%22.txt`.replace('Gruße', 'Gru_e'),
    );
    expect(contentDisposition('inline', 'a b.png')).toBe(`inline; filename="a b.png"; filename*=UTF-8''a%20b.png`);
    expect(contentDisposition('inline', 'x\r\nSet-Cookie: a=b')).not.toMatch(/[\r\n]/);
    expect(asciiFallback('日本.txt')).toBe('__.txt');
  });

  it('is inline only for types that cannot run script', () => {
    for (const t of ['image/png', 'image/jpeg', 'video/mp4', 'audio/ogg', 'application/pdf', 'text/plain']) expect(isInlineSafe(t), t).toBe(true);
    for (const t of ['text/html', 'image/svg+xml', 'application/xhtml+xml', 'text/xml', 'application/octet-stream', 'application/javascript']) {
      expect(isInlineSafe(t), t).toBe(false);
    }
  });
});
