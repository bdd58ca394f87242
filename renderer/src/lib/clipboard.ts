// Copying text. The Clipboard API exists only in secure contexts (https, localhost),
// so a page at http://192.168.x.y falls back to a hidden textarea and
// `execCommand('copy')`; when even that is refused, the caller lets the user copy.

/** Copies `text`; resolves to whether it worked (false: show the text selected for a manual copy). */
export async function copyText(text: string): Promise<boolean> {
  if (typeof navigator.clipboard?.writeText === 'function') {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      // refused (no focus, no permission): the selection-based copy may still work
    }
  }
  return copyBySelection(text);
}

function copyBySelection(text: string): boolean {
  const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const area = document.createElement('textarea');
  area.value = text;
  // read-only: no on-screen keyboard on phones; fixed and transparent: no scrolling or flashing
  area.setAttribute('readonly', '');
  area.setAttribute('aria-hidden', 'true');
  area.style.cssText = 'position:fixed;top:0;left:0;width:1px;height:1px;padding:0;border:0;opacity:0;';
  document.body.appendChild(area);
  area.select();
  area.setSelectionRange(0, text.length);
  let copied = false;
  try {
    copied = document.execCommand('copy');
  } catch {
    copied = false;
  } finally {
    area.remove();
    previous?.focus({ preventScroll: true });
  }
  return copied;
}

/** The key that copies a selection on this device, for the manual-copy hint. */
export function copyShortcut(): string {
  return /Mac|iPhone|iPad|iPod/.test(navigator.userAgent) ? '⌘C' : 'Ctrl+C';
}
