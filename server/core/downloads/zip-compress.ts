/**
 * Whether a ZIP entry is stored or deflated. Already-compressed types
 * (images, audio, video, archives, office documents) are stored; text is
 * deflated; for anything else a sample of the first bytes is deflated at the
 * fastest level, and content that does not shrink by at least 5 % is stored
 * (deflating random or encrypted bytes costs ten times the time for nothing).
 */
import { constants, deflateRawSync } from 'node:zlib';

export const SAMPLE_BYTES = 64 * 1024;

const compressedTypes = new Set([
  'application/zip',
  'application/x-zip-compressed',
  'application/gzip',
  'application/x-gzip',
  'application/x-7z-compressed',
  'application/x-rar-compressed',
  'application/vnd.rar',
  'application/x-bzip2',
  'application/x-xz',
  'application/zstd',
  'application/x-zstd',
  'application/x-lzip',
  'application/x-lzma',
  'application/x-compress',
  'application/java-archive',
  'application/epub+zip',
  'application/vnd.android.package-archive',
  'application/x-apple-diskimage',
  'application/vnd.ms-cab-compressed',
  'application/x-rpm',
  'application/vnd.debian.binary-package',
  'application/x-debian-package',
  'application/font-woff',
  'font/woff',
  'font/woff2',
]);

/** Image, audio and video types that are not compressed and do shrink. */
const uncompressedMedia = new Set(['image/svg+xml', 'image/bmp', 'image/x-ms-bmp', 'image/tiff', 'image/x-icon', 'image/vnd.microsoft.icon', 'audio/wav', 'audio/x-wav', 'audio/wave', 'audio/aiff', 'audio/x-aiff']);

export type EntryMethod = 'store' | 'deflate' | 'sample';

/** The decision from the type alone; `sample` means: look at the bytes. */
export const methodForType = (mimetype: string): EntryMethod => {
  const t = mimetype.split(';')[0]!.trim().toLowerCase();
  if (uncompressedMedia.has(t)) return 'deflate';
  if (t.startsWith('image/') || t.startsWith('audio/') || t.startsWith('video/')) return 'store';
  if (compressedTypes.has(t)) return 'store';
  if (t.startsWith('application/vnd.openxmlformats-officedocument.') || t.startsWith('application/vnd.oasis.opendocument.')) return 'store';
  if (t.startsWith('text/') || t.endsWith('+xml') || t.endsWith('+json') || t === 'application/json' || t === 'application/xml' || t === 'application/javascript') {
    return 'deflate';
  }
  return 'sample';
};

/** Whether a sample of the content shrinks enough under deflate to be worth deflating the whole entry. */
export const sampleCompresses = (sample: Uint8Array): boolean => {
  if (sample.length < 512) return true;
  const out = deflateRawSync(sample, { level: constants.Z_BEST_SPEED });
  return out.length < sample.length * 0.95;
};

/** Store (true) or deflate (false) for an entry of this type whose first bytes are `head`. */
export const shouldStore = (mimetype: string, head: Uint8Array): boolean => {
  const m = methodForType(mimetype);
  if (m === 'sample') return !sampleCompresses(head);
  return m === 'store';
};
