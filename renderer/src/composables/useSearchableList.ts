// A list the server searches as the user types (accounts, upload links): the query is
// sent 250 ms after the last keystroke, a newer search aborts the one still running, and
// a failure is shown until a search succeeds.
import { onMounted, onScopeDispose, ref, watch, type Ref } from 'vue';
import { errorMessage } from '../lib/errors';

/** How long typing must pause before the query goes to the server. */
const DEBOUNCE_MS = 250;

export interface SearchableList<T> {
  /** what the user typed (bound to the search field) */
  query: Ref<string>;
  items: Ref<T[]>;
  /** true while a search runs (and before the first one answered) */
  loading: Ref<boolean>;
  failure: Ref<string | null>;
}

/** Loads `search('')` when mounted, then `search(query)` whenever the query changes. */
export function useSearchableList<T>(search: (query: string, signal: AbortSignal) => Promise<T[]>): SearchableList<T> {
  const query = ref('');
  const items = ref<T[]>([]) as Ref<T[]>;
  const loading = ref(true);
  const failure = ref<string | null>(null);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let controller: AbortController | undefined;

  async function load(): Promise<void> {
    controller?.abort();
    controller = new AbortController();
    loading.value = true;
    try {
      items.value = await search(query.value.trim(), controller.signal);
      failure.value = null;
    } catch (e) {
      if (e instanceof DOMException && e.name === 'AbortError') return;
      failure.value = errorMessage(e);
    } finally {
      loading.value = false;
    }
  }

  onMounted(load);
  watch(query, () => {
    clearTimeout(timer);
    timer = setTimeout(() => void load(), DEBOUNCE_MS);
  });
  onScopeDispose(() => {
    clearTimeout(timer);
    controller?.abort();
  });
  return { query, items, loading, failure };
}
