// The name a share shows: the one somebody gave it, or else one composed from who sent it,
// what it holds and when it was made ("From Anna · 3 photos · 28 Nov", "2 files · 28 Nov")
// in the viewer's language and time zone, never its random id. A name the server made up
// for a guest's upload (`autoNamed`) is composed here again from the same parts, so a
// German page does not show the server's English.
import { useI18n } from 'vue-i18n';
import type { ShareListItem } from '../api/types';
import { displayName } from '../lib/display-name';
import { fileKind } from '../lib/file-kind';
import { useUiStore } from '../stores/ui';

export type FilesKind = NonNullable<ShareListItem['filesKind']>;

export interface Nameable {
  name: string | null | undefined;
  created: number;
  /** the number of files, or the files with their types (photos are then called photos) */
  files: number | { mimetype: string }[];
  /** whether the server composed `name` itself (a guest's upload nobody named) */
  autoNamed?: boolean | undefined;
  /** the guest's name of an upload, when given */
  sender?: string | null | undefined;
  /** what the files are, when only their number is at hand (the share list) */
  filesKind?: FilesKind | null | undefined;
}

const kindOf = (files: { mimetype: string }[]): FilesKind => {
  const all = (k: string) => files.length > 0 && files.every((f) => fileKind(f.mimetype) === k);
  return all('image') ? 'photo' : all('video') ? 'video' : 'file';
};

export function useShareName() {
  const { t } = useI18n();
  const ui = useUiStore();
  const day = (ms: number): string => {
    try {
      return new Intl.DateTimeFormat(ui.locale, { day: 'numeric', month: 'short', timeZone: ui.timezone }).format(ms);
    } catch {
      return new Intl.DateTimeFormat(ui.locale, { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(ms);
    }
  };
  return (s: Nameable): string => {
    const given = displayName(s.name ?? null);
    if (given && !s.autoNamed) return given;
    const n = typeof s.files === 'number' ? s.files : s.files.length;
    const kind = typeof s.files === 'number' ? (s.filesKind ?? 'file') : kindOf(s.files);
    const what = n > 0 && kind === 'photo' ? t('shares.naming.photos', { n }, n) : n > 0 && kind === 'video' ? t('shares.naming.videos', { n }, n) : t('shares.naming.files', { n }, n);
    const name = t('shares.naming.name', { what, date: day(s.created) });
    const sender = displayName(s.sender ?? null);
    return sender ? `${t('shares.naming.from', { sender })} · ${name}` : name;
  };
}
