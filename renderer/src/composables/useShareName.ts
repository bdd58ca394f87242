// The name a share shows: the one somebody gave it, or else one composed from what it
// holds and when it was made ("2 files · 28 Nov", "3 photos · 28 Nov") in the viewer's
// language and time zone, never its random id.
import { useI18n } from 'vue-i18n';
import { displayName } from '../lib/display-name';
import { fileKind } from '../lib/file-kind';
import { useUiStore } from '../stores/ui';

export interface Nameable {
  name: string | null | undefined;
  created: number;
  /** the number of files, or the files with their types (photos are then called photos) */
  files: number | { mimetype: string }[];
}

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
    if (given) return given;
    const n = typeof s.files === 'number' ? s.files : s.files.length;
    const photos = typeof s.files !== 'number' && n > 0 && s.files.every((f) => fileKind(f.mimetype) === 'image');
    const what = photos ? t('shares.naming.photos', { n }, n) : t('shares.naming.files', { n }, n);
    return t('shares.naming.name', { what, date: day(s.created) });
  };
}
