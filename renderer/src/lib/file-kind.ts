// What kind of preview a file gets, from its MIME type.
export type FileKind = 'image' | 'video' | 'audio' | 'pdf' | 'text' | 'textlike' | 'other';

const textlike = /^(text\/|application\/(json|xml|x-yaml|yaml|javascript|x-sh|toml|x-ndjson|csv|sql))/;

export function fileKind(mimetype: string): FileKind {
  const t = mimetype.split(';')[0]!.trim().toLowerCase();
  if (t.startsWith('image/')) return 'image';
  if (t.startsWith('video/')) return 'video';
  if (t.startsWith('audio/')) return 'audio';
  if (t === 'application/pdf') return 'pdf';
  // text/plain is served inline: shown in a sandboxed frame. Other text types are
  // attachments: fetched and shown as plain text.
  if (t === 'text/plain') return 'text';
  if (textlike.test(t)) return 'textlike';
  return 'other';
}

/** A short label for file cards without a picture: the extension (`PDF`) or the kind. */
export function kindLabel(filename: string, kind: FileKind): string {
  return extensionLabel(filename) || kind.toUpperCase();
}

/** `PDF`, `MP4`: a short extension in capitals; '' when the name has none. */
export function extensionLabel(filename: string): string {
  const dot = filename.lastIndexOf('.');
  return dot > 0 && filename.length - dot <= 6 ? filename.slice(dot + 1).toUpperCase() : '';
}

/** How far a file whose upload has not finished got, in whole percent; null once it is complete. */
export function incomplete(f: { size: number; storedSize: number }): number | null {
  return f.storedSize < f.size ? Math.floor((f.storedSize / Math.max(1, f.size)) * 100) : null;
}
