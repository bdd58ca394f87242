// A user action behind a button: `busy` while it runs (the button is disabled), and
// what went wrong in `failure` (shown in an alert) until the next run. A view may also
// set `failure` itself, for input it refuses before running anything.
import { ref, type Ref } from 'vue';
import { errorMessage } from '../lib/errors';

export interface Action {
  busy: Ref<boolean>;
  failure: Ref<string | null>;
  /**
   * Runs `action` with `busy` set and `failure` cleared; a thrown error becomes
   * `failure` (`errorMessage`). Resolves true when `action` finished without throwing.
   */
  run(action: () => Promise<unknown>): Promise<boolean>;
}

export function useAction(): Action {
  const busy = ref(false);
  const failure = ref<string | null>(null);
  async function run(action: () => Promise<unknown>): Promise<boolean> {
    busy.value = true;
    failure.value = null;
    try {
      await action();
      return true;
    } catch (e) {
      failure.value = errorMessage(e);
      return false;
    } finally {
      busy.value = false;
    }
  }
  return { busy, failure, run };
}
