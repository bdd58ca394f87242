// The signed-in user's record of seen guest uploads (lib/guest-uploads.ts), in this
// browser's localStorage.
import { ref } from 'vue';
import type { ShareListItem } from '../api/types';
import { isNewGuestUpload, readSeen, withAllSeen, withOpened, writeSeen } from '../lib/guest-uploads';
import { useAuthStore } from '../stores/auth';

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export function useSeenGuestUploads() {
  const login = useAuthStore().login;
  const seen = ref(readSeen(storage(), login, Date.now()));

  function save(next: typeof seen.value): void {
    seen.value = next;
    writeSeen(storage(), login, next);
  }

  return {
    isNew: (item: ShareListItem): boolean => isNewGuestUpload(item, seen.value),
    /** The user opened this share: it is no longer new. */
    markOpened: (item: ShareListItem): void => {
      if (isNewGuestUpload(item, seen.value)) save(withOpened(seen.value, item.id));
    },
    /** The user has seen every one of `shown`. */
    markAllSeen: (shown: ShareListItem[]): void => save(withAllSeen(seen.value, shown)),
  };
}
