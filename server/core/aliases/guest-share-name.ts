/**
 * The name of a share a guest sent without naming it: who sent it, what it
 * holds and when, so the owner tells uploads apart at a glance —
 * `From Anna · 3 photos · 23 Nov`, or `3 photos · 23 Nov` without a sender.
 * Written once for everybody who sees the share, so it is in the server's
 * default language and time zone.
 */
import { cleanDisplayName } from '../../common/display-name.js';
import { badRequest } from '../../common/errors.js';

/** Characters a sender's name may have, after cleaning. */
const MAX_SENDER = 100;

/**
 * The name a guest typed, fit to show: without bidirectional controls, other
 * controls as spaces, runs of white space one space, trimmed; null when
 * nothing is left. `bad-request` naming `sender` when longer than
 * `MAX_SENDER` characters.
 */
export const cleanSender = (raw: string | null | undefined): string | null => {
  if (raw === null || raw === undefined) return null;
  const clean = cleanDisplayName(raw);
  if ([...clean].length > MAX_SENDER) throw badRequest('sender', `The sender's name may have at most ${MAX_SENDER} characters.`);
  return clean || null;
};

export type FileKind = 'photo' | 'video' | 'file';

/** Photos when every file is an image, videos when every file is a video, else files. */
export const kindOf = (mimetypes: string[]): FileKind => {
  const all = (prefix: string) => mimetypes.length > 0 && mimetypes.every((m) => m.toLowerCase().startsWith(prefix));
  return all('image/') ? 'photo' : all('video/') ? 'video' : 'file';
};

interface Words {
  locale: string;
  from: (sender: string) => string;
  kind: Record<FileKind, [one: string, many: string]>;
}

const WORDS: Record<string, Words> = {
  gb: { locale: 'en-GB', from: (s) => `From ${s}`, kind: { photo: ['photo', 'photos'], video: ['video', 'videos'], file: ['file', 'files'] } },
  de: { locale: 'de-DE', from: (s) => `Von ${s}`, kind: { photo: ['Foto', 'Fotos'], video: ['Video', 'Videos'], file: ['Datei', 'Dateien'] } },
  es: { locale: 'es-ES', from: (s) => `De ${s}`, kind: { photo: ['foto', 'fotos'], video: ['vídeo', 'vídeos'], file: ['archivo', 'archivos'] } },
  fr: { locale: 'fr-FR', from: (s) => `Envoyé par ${s}`, kind: { photo: ['photo', 'photos'], video: ['vidéo', 'vidéos'], file: ['fichier', 'fichiers'] } },
  it: { locale: 'it-IT', from: (s) => `Da ${s}`, kind: { photo: ['foto', 'foto'], video: ['video', 'video'], file: ['file', 'file'] } },
};

export interface NamingRules {
  /** `webapp.default-language`; languages without words here use English */
  language: string;
  /** `webapp.default-timezone`; empty: UTC */
  timeZone: string;
}

/** `From Anna · 3 photos · 23 Nov`; without a sender `3 photos · 23 Nov`. */
export const guestShareName = (
  share: { sender: string | null; created: number },
  files: { count: number; kind: FileKind },
  rules: NamingRules,
): string => {
  const w = WORDS[rules.language] ?? WORDS['gb']!;
  const [one, many] = w.kind[files.kind];
  const day = new Intl.DateTimeFormat(w.locale, { day: 'numeric', month: 'short', timeZone: rules.timeZone || 'UTC' }).format(share.created);
  const parts = [`${files.count} ${files.count === 1 ? one : many}`, day];
  if (share.sender) parts.unshift(w.from(share.sender));
  return parts.join(' · ');
};
