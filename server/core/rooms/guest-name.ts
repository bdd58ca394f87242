/**
 * Names guests and owners give (a guest's name, a room's name): plain text
 * of bounded length, whatever was sent. Control characters (line breaks
 * included), bidirectional overrides and isolates, zero-width characters and
 * angle brackets are removed, so a name can neither reorder the text around it
 * nor pass for markup where it is shown (pages, notifications).
 */
const removed = /[\p{Cc}\u00AD\u061C\u115F\u1160\u180E\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFEFF\uFFA0\uFFF9-\uFFFB<>]|\p{Variation_Selector}/gu;

/** At most this many characters (code points) in a guest's name. */
export const GUEST_NAME_MAX = 40;
/** At most this many characters in a room's name. */
export const ROOM_NAME_MAX = 80;

/** The cleaned name: NFC, removed characters gone, white space collapsed, cut at `max` code points; `''` when nothing is left. */
export const cleanName = (raw: unknown, max = GUEST_NAME_MAX): string => {
  if (typeof raw !== 'string') return '';
  const text = raw.normalize('NFC').replace(/[\t\n\v\f\r]/g, ' ').replace(removed, '').replace(/\s+/gu, ' ').trim();
  return Array.from(text).slice(0, max).join('').trim();
};
