// Which guest uploads (shares that arrived through an upload link) the user has not
// looked at yet. Remembered per browser and account: a time up to which everything
// counts as seen, and the shares opened since then.
import type { ShareListItem } from '../api/types.js';

export interface SeenGuestUploads {
  /** epoch ms: guest uploads created up to this time are seen */
  since: number;
  /** ids of later guest uploads the user has opened */
  opened: string[];
}

/** A browser that has never looked shows the guest uploads of the last 7 days as new. */
export const FIRST_LOOK_WINDOW = 7 * 24 * 60 * 60 * 1000;
const MAX_OPENED = 200;

/** The start of the storage key of every account's record. */
export const SEEN_KEY_PREFIX = 'guestUploadsSeen:';
const keyOf = (login: string): string => `${SEEN_KEY_PREFIX}${login}`;

/** What `login` has seen in this browser; the first-look default when nothing (readable) is stored. */
export function readSeen(storage: Storage | null, login: string, now: number): SeenGuestUploads {
  try {
    const value: unknown = JSON.parse(storage?.getItem(keyOf(login)) ?? 'null');
    if (typeof value === 'object' && value !== null && 'since' in value && 'opened' in value) {
      const { since, opened } = value;
      if (typeof since === 'number' && Array.isArray(opened)) {
        return { since, opened: opened.filter((id): id is string => typeof id === 'string') };
      }
    }
  } catch {
    // unreadable: start over
  }
  return { since: now - FIRST_LOOK_WINDOW, opened: [] };
}

export function writeSeen(storage: Storage | null, login: string, seen: SeenGuestUploads): void {
  try {
    storage?.setItem(keyOf(login), JSON.stringify(seen));
  } catch {
    // Storage may be full or disabled: what was seen then lasts for this page only.
  }
}

export const isNewGuestUpload = (item: ShareListItem, seen: SeenGuestUploads): boolean =>
  item.aliasInfo !== null && item.created > seen.since && !seen.opened.includes(item.id);

/** `seen` with one more opened share (the oldest ids are forgotten beyond a few hundred). */
export const withOpened = (seen: SeenGuestUploads, id: string): SeenGuestUploads =>
  seen.opened.includes(id) ? seen : { since: seen.since, opened: [...seen.opened, id].slice(-MAX_OPENED) };

/**
 * Everything up to the newest of `shown` is seen. Uploads that arrived after the list
 * was loaded stay new, as the user has not seen them.
 */
export function withAllSeen(seen: SeenGuestUploads, shown: ShareListItem[]): SeenGuestUploads {
  const since = Math.max(seen.since, ...shown.map((s) => s.created));
  return { since, opened: seen.opened.filter((id) => !shown.some((s) => s.id === id)) };
}
