/**
 * `Content-Disposition` with an RFC 6266 / RFC 8187 `filename*` and an ASCII
 * fallback, and the choice between inline and attachment.
 */

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

/** Printable ASCII without quote, backslash and percent; anything else becomes `_`. */
export const asciiFallback = (name: string): string => {
  const s = name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  const ascii = Array.from(s, (c) => (/[\x20-\x7e]/.test(c) && !/["\\%]/.test(c) ? c : '_')).join('').trim();
  return ascii || 'download';
};

export const contentDisposition = (type: 'inline' | 'attachment', filename: string): string => {
  // eslint-disable-next-line no-control-regex -- removing control characters is the point
  const name = filename.replace(/[\x00-\x1f\x7f]/g, '') || 'download';
  return `${type}; filename="${asciiFallback(name)}"; filename*=UTF-8''${encodeExtValue(name)}`;
};
