// File and share names as the lists show them.

// C0 and C1 controls, DEL, the line and paragraph separators, the byte-order
// mark, and the bidi controls (marks, embeddings, overrides, isolates) that
// make `invoice\u202Etxt.exe` read as `invoiceexe.txt`. The server strips the
// same set; names stored by older versions may still carry them.
// eslint-disable-next-line no-control-regex -- removing control characters is the point
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g;

/** A name for display: composed (NFC), without control or bidi characters; `''` for none. */
export function displayName(name: string | null | undefined): string {
  return (name ?? '').normalize('NFC').replace(CONTROLS, '');
}
