// QR codes of links, drawn in the browser (the qrcode library is loaded on first use).

/** A data URL of `text`'s QR code, `width` pixels wide, black on white whatever the theme. */
export async function qrDataUrl(text: string, width: number): Promise<string> {
  const { toDataURL } = await import('qrcode');
  return toDataURL(text, { margin: 2, width, color: { dark: '#000000', light: '#ffffff' } });
}
