// C0 and C1 controls, DEL, the line and paragraph separators, the byte-order
// mark, and the bidi controls (marks, embeddings, overrides, isolates) that
// make `invoice\u202Etxt.exe` read as `invoiceexe.txt`.
// eslint-disable-next-line no-control-regex -- removing control characters is the point
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g;

/**
 * The one cleaning every name a person chose (file and share names) gets
 * before the server stores, shows or sends it: composed (NFC), without
 * control and bidi characters. Nothing else changes; callers that need a path
 * segment or an ASCII form make their own rules on top of this.
 */
export const cleanName = (raw: string): string => raw.normalize('NFC').replace(CONTROLS, '');

/**
 * The name an uploaded file is kept under: {@link cleanName} of the last
 * segment of what the client sent (no folders, no `..`: a name can never
 * point anywhere), at most 255 characters, `file` when nothing is left.
 * The file-system store and the ZIP writer make their own names safe again.
 */
export const cleanFileName = (raw: string | null | undefined): string => {
  const last = cleanName(raw ?? '').split(/[/\\]/).pop()!.trim();
  if (last === '' || last === '.' || last === '..') return 'file';
  const chars = [...last];
  if (chars.length <= 255) return last;
  // keep the extension when cutting
  const dot = last.lastIndexOf('.');
  const ext = dot > 0 && last.length - dot <= 16 ? last.slice(dot) : '';
  return chars.slice(0, 255 - [...ext].length).join('') + ext;
};

/** A `Service-File-Name` header value: percent-encoded UTF-8; undefined when it is not valid. */
export const decodeHeaderName = (value: string): string | undefined => {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
};
