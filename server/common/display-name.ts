/**
 * The cleaning every name a guest or user sets (a sender's name, a share's
 * name, an upload link's name) gets before it is stored: such names are shown
 * on one line in lists, pages and mail subjects, where a bidi override would
 * reorder what surrounds them and a line break would start a new line.
 */

// Controls, line and paragraph separators and the byte-order mark: each becomes a space.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const BREAKS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff]/g;
// Bidirectional marks, embeddings, overrides and isolates: they go.
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * `raw` composed (NFC), without bidirectional controls, other controls as
 * spaces, runs of white space as one space, trimmed; `''` when nothing is left.
 */
export const cleanDisplayName = (raw: string): string =>
  raw.normalize('NFC').replace(BIDI, '').replace(BREAKS, ' ').replace(/\s+/gu, ' ').trim();
