// Copy to the clipboard with a short "copied" state for the button's label.
import { onScopeDispose, ref } from 'vue';

/** Writes text to the clipboard; falls back to a hidden text area where the async API is missing (plain http). */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // fall through to the older way
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  let ok = false;
  try {
    ok = document.execCommand('copy');
  } finally {
    area.remove();
  }
  return ok;
}

export function useClipboard(resetAfterMs = 2000) {
  const copied = ref(false);
  const failed = ref(false);
  let timer: ReturnType<typeof setTimeout> | undefined;
  onScopeDispose(() => clearTimeout(timer));

  async function copy(text: string) {
    const ok = await copyText(text);
    copied.value = ok;
    failed.value = !ok;
    clearTimeout(timer);
    timer = setTimeout(() => {
      copied.value = false;
      failed.value = false;
    }, resetAfterMs);
    return ok;
  }
  return { copy, copied, failed };
}
