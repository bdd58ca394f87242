// QR codes made in the browser (no service involved): the `qrcode` package is
// loaded on first use, so it stays out of the first page's bundle.
import { ref, watchEffect, type Ref } from 'vue';

export interface QrShape {
  /** modules per side, without the quiet zone */
  size: number;
  /** one SVG path drawing every dark module, in module units, offset by the quiet zone */
  path: string;
}

/** Reduces a QR matrix to one SVG path (one `h1v1h-1z` square per dark module). */
export function qrPath(size: number, dark: (row: number, col: number) => boolean, margin: number): string {
  const parts: string[] = [];
  for (let r = 0; r < size; r++) {
    for (let c = 0; c < size; c++) if (dark(r, c)) parts.push(`M${c + margin} ${r + margin}h1v1h-1z`);
  }
  return parts.join('');
}

/** The QR code of `text`, recomputed when it changes; null while loading or for an empty text. */
export function useQrCode(text: Ref<string>, margin = 2) {
  const shape = ref<QrShape | null>(null);
  watchEffect(async (onCleanup) => {
    const value = text.value;
    let cancelled = false;
    onCleanup(() => {
      cancelled = true;
    });
    if (value === '') {
      shape.value = null;
      return;
    }
    const { create } = await import('qrcode');
    if (cancelled) return;
    const { modules } = create(value, { errorCorrectionLevel: 'M' });
    shape.value = { size: modules.size, path: qrPath(modules.size, (r, c) => Boolean(modules.get(r, c)), margin) };
  });
  return { shape, margin };
}
