import { describe, expect, it } from 'vitest';
import { MAX_SEGMENT_BYTES, numbered, safeSegment, splitExtension } from '../../../server/core/stores/safe-name.js';

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

describe('safeSegment', () => {
  it('keeps ordinary names as they are', () => {
    for (const name of ['report.pdf', 'Holiday photos', 'Übersicht 2024.xlsx', '日本語.txt', 'a b  c.txt', 'x-y_z (1).tar.gz']) {
      expect(safeSegment(name)).toBe(name);
    }
  });

  it.each([
    ['..', 'file'],
    ['.', 'file'],
    ['...', 'file'],
    ['  ', 'file'],
    ['', 'file'],
    ['../../etc/passwd', '___.._etc_passwd'], // no separator left: the dots are plain characters
    ['..\\..\\boot.ini', '___.._boot.ini'],
    ['/etc/passwd', '_etc_passwd'],
    ['C:\\Windows\\win.ini', 'C__Windows_win.ini'],
    ['c:', 'c_'],
    ['a\u0000b', 'a_b'],
    ['line\nbreak\ttab', 'line_break_tab'],
    ['\u202Egnp.exe', '_gnp.exe'],
    ['.htaccess', '_htaccess'],
    ['trailing. . ', 'trailing'],
    ['CON', '_CON'],
    ['nul.txt', '_nul.txt'],
    ['com1', '_com1'],
    ['LPT9.log', '_LPT9.log'],
    ['console', 'console'],
    ['what?<>|*"', 'what______'],
  ])('%j → %j', (raw, safe) => {
    expect(safeSegment(raw)).toBe(safe);
  });

  it('shortens overlong names at a character boundary and keeps the extension', () => {
    const long = safeSegment(`${'a'.repeat(400)}.txt`);
    expect(bytes(long)).toBeLessThanOrEqual(MAX_SEGMENT_BYTES);
    expect(long.endsWith('.txt')).toBe(true);
    const wide = safeSegment(`${'ü'.repeat(300)}.jpeg`);
    expect(bytes(wide)).toBeLessThanOrEqual(MAX_SEGMENT_BYTES);
    expect(wide).toMatch(/^ü+\.jpeg$/);
    const emoji = safeSegment('😀'.repeat(100));
    expect(bytes(emoji)).toBeLessThanOrEqual(MAX_SEGMENT_BYTES);
    expect([...emoji].every((c) => c === '😀')).toBe(true);
    // an absurd "extension" is not kept whole
    expect(bytes(safeSegment(`a.${'x'.repeat(400)}`))).toBeLessThanOrEqual(MAX_SEGMENT_BYTES);
  });

  it('uses the fallback when nothing is left', () => {
    expect(safeSegment('..', 'share')).toBe('share');
  });
});

describe('numbered', () => {
  it('numbers before the extension', () => {
    expect(numbered('a.txt', 0)).toBe('a.txt');
    expect(numbered('a.txt', 1)).toBe('a (1).txt');
    expect(numbered('README', 2)).toBe('README (2)');
    expect(numbered('backup.tar.gz', 1)).toBe('backup (1).tar.gz');
    expect(numbered('_htaccess', 1)).toBe('_htaccess (1)');
  });

  it('splits extensions', () => {
    expect(splitExtension('a.b.c')).toEqual(['a.b', '.c']);
    expect(splitExtension('noext')).toEqual(['noext', '']);
    expect(splitExtension('dot.')).toEqual(['dot.', '']);
  });
});
