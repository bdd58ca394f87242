/**
 * `Content-Disposition` with an RFC 6266 / RFC 8187 `filename*` and an ASCII
 * fallback, and the choice between inline and attachment.
 */
import { cleanName } from '../core/uploads/file-name.js';

/** Types a browser may show inline: none of them can carry script. Everything else is an attachment. */
const inlineTypes = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/bmp',
  'application/pdf',
  'text/plain',
]);

const baseType = (mimetype: string): string => mimetype.split(';')[0]!.trim().toLowerCase();

export const isInlineSafe = (mimetype: string): boolean => {
  const t = baseType(mimetype);
  return inlineTypes.has(t) || t.startsWith('audio/') || t.startsWith('video/');
};

// RFC 8187 attr-char: ALPHA / DIGIT / "!" / "#" / "$" / "&" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~"
const encodeExtValue = (s: string): string =>
  Array.from(Buffer.from(s, 'utf8'))
    .map((b) => {
      const c = String.fromCharCode(b);
      return /[A-Za-z0-9!#$&+\-.^_`|~]/.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
    })
    .join('');

/** The name as sent: {@link cleanName}, separators as `_`, `download` for a name of nothing but dots and spaces. */
const sentName = (filename: string): string => {
  const name = cleanName(filename).replace(/[/\\]/g, '_');
  return /^[\s.]*$/.test(name) ? 'download' : name;
};

/**
 * The ASCII `filename` for clients without RFC 8187: compatibility forms
 * folded first (NFKC, so fullwidth `．．／` is judged as the `../` it becomes),
 * accents dropped, then printable ASCII without quote, backslash, percent and
 * slash; anything else becomes `_`, and so do leading dots: the fallback is
 * never a path and never starts with `.` or `..`.
 */
export const asciiFallback = (name: string): string => {
  const folded = cleanName(name).normalize('NFKC').normalize('NFD').replace(/\p{M}/gu, '');
  const ascii = Array.from(folded, (c) => (/[\x20-\x7e]/.test(c) && !/["\\%/]/.test(c) ? c : '_'))
    .join('')
    .trim()
    .replace(/^\.+/, (dots) => '_'.repeat(dots.length));
  return ascii || 'download';
};

/** The header for a file or ZIP named `filename`; the name is cleaned here, whatever was stored. */
export const contentDisposition = (type: 'inline' | 'attachment', filename: string): string => {
  const name = sentName(filename);
  return `${type}; filename="${asciiFallback(name)}"; filename*=UTF-8''${encodeExtValue(name)}`;
};
