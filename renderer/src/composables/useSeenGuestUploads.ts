// The signed-in user's record of seen guest uploads (lib/guest-uploads.ts), in this
// browser's localStorage. One record per account, shared by every part of the page (the
// navigation badge, the home page, the share list), so opening a share anywhere clears
// it everywhere at once; other tabs of the same browser follow through storage events.
import { reactive, watch } from 'vue';
import type { ShareListItem } from '../api/types';
import { isNewGuestUpload, readSeen, SEEN_KEY_PREFIX, withAllSeen, withOpened, writeSeen, type SeenGuestUploads } from '../lib/guest-uploads';
import { useAuthStore } from '../stores/auth';

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

const seenBy = reactive(new Map<string, SeenGuestUploads>());
let following = false;

/** Reads the record of `login` once; later reads share it. */
function load(login: string): void {
  if (!seenBy.has(login)) seenBy.set(login, readSeen(storage(), login, Date.now()));
}

/** Another tab changed what was seen: take its record. */
function followOtherTabs(): void {
  if (following) return;
  following = true;
  window.addEventListener('storage', (e) => {
    // null: the whole storage was cleared
    if (e.key !== null && !e.key.startsWith(SEEN_KEY_PREFIX)) return;
    for (const login of seenBy.keys()) seenBy.set(login, readSeen(storage(), login, Date.now()));
  });
}

export function useSeenGuestUploads() {
  const auth = useAuthStore();
  load(auth.login);
  watch(() => auth.login, load, { flush: 'sync' });
  followOtherTabs();

  const seen = (): SeenGuestUploads => seenBy.get(auth.login) ?? readSeen(null, auth.login, Date.now());
  function save(next: SeenGuestUploads): void {
    seenBy.set(auth.login, next);
    writeSeen(storage(), auth.login, next);
  }

  return {
    isNew: (item: ShareListItem): boolean => isNewGuestUpload(item, seen()),
    /** The user opened this share: it is no longer new. */
    markOpened: (item: ShareListItem): void => {
      if (isNewGuestUpload(item, seen())) save(withOpened(seen(), item.id));
    },
    /** The user has seen every one of `shown`. */
    markAllSeen: (shown: ShareListItem[]): void => save(withAllSeen(seen(), shown)),
  };
}
