/**
 * ZIP entry names that cannot escape the archive root and never collide:
 * {@link cleanName} first (no control or bidi characters), then separators
 * (`/`, `\`, and their fullwidth, small and mathematical forms, which
 * extractors with a best-fit code page turn back into separators) and the
 * characters Windows refuses become `_`, dot leaders and other full stops
 * become dots, runs of dots become one dot (no `..` anywhere), leading
 * dots and trailing dots or spaces go, and a repeated name (compared
 * case-insensitively, as many file systems do) gets ` (1)`, ` (2)`, ...
 * before its extension.
 */
import { cleanName } from '../uploads/file-name.js';

const MAX_BYTES = 240;

/** Separators, the characters Windows refuses in names, and the slashes a best-fit code page maps to `/` or `\`. */
const SEPARATOR_LIKE = /[/\\<>:"|?*\uff0f\uff3c\ufe68\u2215\u2216\u2044\u29f8\u29f9]/g;
/** Dot leaders and full stops of other widths, which become dots (and so cannot form a hidden `..`). */
const DOT_LIKE = /[\u2024\u2025\uff0e\ufe52]/g;

const truncateUtf8 = (s: string, maxBytes: number): string => {
  let out = '';
  let bytes = 0;
  for (const c of s) {
    const n = Buffer.byteLength(c, 'utf8');
    if (bytes + n > maxBytes) break;
    out += c;
    bytes += n;
  }
  return out;
};

/** One safe path component (no directories), never empty. */
export const safeEntryName = (name: string, fallback: string): string => {
  let s = cleanName(name)
    .replace(SEPARATOR_LIKE, '_')
    .replace(DOT_LIKE, '.')
    .replace(/\.{2,}/g, '.')
    .trim()
    .replace(/^\.+/, '')
    .replace(/[. ]+$/, '')
    .trim();
  if (!s) s = fallback.replace(/[^A-Za-z0-9._@-]/g, '_').replace(/^\.+/, '') || 'file';
  if (Buffer.byteLength(s, 'utf8') > MAX_BYTES) {
    const { stem, ext } = splitExt(s);
    s = truncateUtf8(stem, MAX_BYTES - Buffer.byteLength(ext, 'utf8')) + ext;
  }
  return s;
};

const splitExt = (name: string): { stem: string; ext: string } => {
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || name.length - dot > 16) return { stem: name, ext: '' };
  return { stem: name.slice(0, dot), ext: name.slice(dot) };
};

/** Gives each file a unique, safe entry name, in the order given. */
export const uniqueEntryNames = (names: Array<{ name: string; fallback: string }>): string[] => {
  const taken = new Set<string>();
  return names.map(({ name, fallback }) => {
    const safe = safeEntryName(name, fallback);
    let candidate = safe;
    const { stem, ext } = splitExt(safe);
    for (let i = 1; taken.has(candidate.toLowerCase()); i++) candidate = `${stem} (${i})${ext}`;
    taken.add(candidate.toLowerCase());
    return candidate;
  });
};
