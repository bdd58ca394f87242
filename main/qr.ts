/** QR codes, generated locally (no web service sees the links). */
import QRCode from 'qrcode';
import type { QrData } from '../preload/desktop-api.js';

export const QR_MAX_TEXT = 2000;

/** An SVG QR code of `text` and the same as a data URL. Throws on empty or over-long text. */
export const qrData = async (text: string): Promise<QrData> => {
  if (typeof text !== 'string' || text.length === 0 || text.length > QR_MAX_TEXT)
    throw new Error(`The QR code text must have 1 to ${QR_MAX_TEXT} characters.`);
  const svg = await QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { text, svg, dataUrl: `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}` };
};
