// What the navigation badge counts: guest uploads the signed-in user has not opened yet
// (in this browser), among the newest shares. Looked up when the user signs in, moves
// between pages (at most every 15 s), comes back to the tab, and every minute while the
// tab is visible. Opening a share's page, from anywhere (a list, a mail, the desktop
// notification), clears it.
import { computed, onScopeDispose, ref, watch } from 'vue';
import { useRoute } from 'vue-router';
import { searchShares } from '../api/shares';
import type { ShareListItem } from '../api/types';
import { useAuthStore } from '../stores/auth';
import { useSeenGuestUploads } from './useSeenGuestUploads';

/** As many shares as the home page looks at (it hands its list over with `takeNewest`). */
export const LOOK_AT = 50;
const MIN_GAP = 15_000;
const POLL = 60_000;

// one list for the header and the home page
const shares = ref<ShareListItem[]>([]);
let last = 0;
let shown: string | null = null;

/**
 * The newest shares as the header last saw them: the one live list that the home page
 * shows too, so its "new" card and the header's badge never disagree.
 */
export const newestShares = computed(() => shares.value);

/** The newest `LOOK_AT` shares of the signed-in user, as the home page just fetched them. */
export function takeNewest(items: ShareListItem[]): void {
  shares.value = items;
  last = Date.now();
}

export function useNewGuestUploads() {
  const auth = useAuthStore();
  const route = useRoute();
  const seen = useSeenGuestUploads();
  const fresh = computed(() => shares.value.filter((s) => seen.isNew(s)));

  async function refresh(force = false): Promise<void> {
    if (!auth.loggedIn) {
      shares.value = [];
      return;
    }
    if (!force && Date.now() - last < MIN_GAP) return;
    last = Date.now();
    const login = auth.login;
    try {
      const list = await searchShares('', 1, LOOK_AT, { noAuthRedirect: true });
      if (auth.login === login) shares.value = list;
    } catch {
      // the badge is a hint: keep what was known until the next look
    }
  }

  // on every page change, not on its query (tabs, filters); the home page hands its own list over
  watch(
    [() => auth.login, () => route.name],
    ([login, name]) => {
      if (login !== shown) {
        shown = login;
        shares.value = [];
        last = 0;
      }
      if (name !== undefined && name !== 'home') void refresh();
    },
    { immediate: true },
  );

  const onVisible = () => {
    if (document.visibilityState === 'visible') void refresh(true);
  };
  document.addEventListener('visibilitychange', onVisible);
  const timer = setInterval(() => {
    if (document.visibilityState === 'visible') void refresh(true);
  }, POLL);
  onScopeDispose(() => {
    document.removeEventListener('visibilitychange', onVisible);
    clearInterval(timer);
  });

  // the share's own page is open: it has been seen
  watch(
    [() => route.name, () => route.params['id'], fresh],
    ([name, id]) => {
      if (name !== 'upload') return;
      const opened = fresh.value.find((s) => s.id === id);
      if (opened) seen.markOpened(opened);
    },
    { immediate: true },
  );

  return { count: computed(() => fresh.value.length) };
}
