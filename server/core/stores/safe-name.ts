/**
 * Turns names chosen by uploaders (file names, share names) into single,
 * harmless path segments that still look like the original, so a person can
 * find a received file in a file-system store. Pure functions.
 */

/** Longest segment in UTF-8 bytes, leaving room for a ` (123)` suffix below the usual 255. */
export const MAX_SEGMENT_BYTES = 200;
const MAX_EXTENSION_BYTES = 24;

// Separators and characters Windows refuses, C0/C1 controls, and the bidi
// controls that make `txt.exe` look like `exe.txt`.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[/\\:*?"<>|\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)(\..*)?$/i;

const utf8Length = (s: string): number => Buffer.byteLength(s, 'utf8');

/** The longest prefix of `s` (whole code points) of at most `max` UTF-8 bytes. */
export const truncateUtf8 = (s: string, max: number): string => {
  if (utf8Length(s) <= max) return s;
  let out = '';
  let bytes = 0;
  for (const ch of s) {
    const n = utf8Length(ch);
    if (bytes + n > max) break;
    out += ch;
    bytes += n;
  }
  return out;
};

/** Splits `name.ext` (the extension includes the dot; none for `.bashrc`-like names). */
export const splitExtension = (name: string): [base: string, ext: string] => {
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || dot === name.length - 1) return [name, ''];
  const [base, ext] = [name.slice(0, dot), name.slice(dot)];
  // `backup.tar.gz` → `backup (1).tar.gz`
  if (/\.tar$/i.test(base) && base.length > 4) return [base.slice(0, -4), base.slice(-4) + ext];
  return [base, ext];
};

/**
 * One safe path segment for `raw`: no separators, no control or bidi
 * characters, no `.`/`..`, no leading dots (hidden files), no trailing dots
 * or spaces (Windows drops them), no reserved device names, at most
 * {@link MAX_SEGMENT_BYTES} bytes with the extension kept. Never empty:
 * `fallback` is used when nothing is left.
 */
export const safeSegment = (raw: string, fallback = 'file'): string => {
  let s = raw.normalize('NFC').replace(UNSAFE, '_');
  s = s.trim();
  s = s.replace(/^\.+/, (dots) => '_'.repeat(dots.length)).replace(/[. ]+$/, '');
  if (s === '' || /^[\s.]*$/.test(raw)) s = fallback;
  if (WINDOWS_RESERVED.test(s)) s = `_${s}`;
  if (utf8Length(s) > MAX_SEGMENT_BYTES) {
    const [base, ext] = splitExtension(s);
    const keepExt = ext !== '' && utf8Length(ext) <= MAX_EXTENSION_BYTES ? ext : '';
    s = truncateUtf8(keepExt ? base : s, MAX_SEGMENT_BYTES - utf8Length(keepExt)).replace(/[. ]+$/, '') + keepExt;
    if (s === '' || s === keepExt) s = fallback + keepExt;
  }
  return s;
};

/** The n-th alternative of a name: `a.txt`, `a (1).txt`, `a (2).txt`, ... */
export const numbered = (name: string, n: number): string => {
  if (n === 0) return name;
  const [base, ext] = splitExtension(name);
  return `${base} (${n})${ext}`;
};
