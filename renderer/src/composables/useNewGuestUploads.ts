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

/** As many shares as the home page looks at. */
const LOOK_AT = 50;
const MIN_GAP = 15_000;
const POLL = 60_000;

export function useNewGuestUploads() {
  const auth = useAuthStore();
  const route = useRoute();
  const seen = useSeenGuestUploads();
  const shares = ref<ShareListItem[]>([]);
  const fresh = computed(() => shares.value.filter((s) => seen.isNew(s)));
  let last = 0;

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

  watch(
    () => auth.login,
    () => {
      shares.value = [];
      void refresh(true);
    },
    { immediate: true },
  );
  watch(() => route.fullPath, () => void refresh());

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

  return { count: computed(() => fresh.value.length), refresh };
}
