// Formatting bound to the user's language and time zone.
import { useI18n } from 'vue-i18n';
import { durationParts, formatDateTime, formatNumber, formatSize } from '../lib/format';
import { useUiStore } from '../stores/ui';

export function useFormat() {
  const { t } = useI18n();
  const ui = useUiStore();
  return {
    /** `1,5 MB` in German */
    size: (bytes: number): string => formatSize(bytes, ui.locale),
    /** `12.345` in German */
    number: (n: number): string => formatNumber(n, ui.locale),
    /** date and time in the user's zone */
    date: (ms: number | null | undefined): string => (ms == null ? '—' : formatDateTime(ms, ui.locale, ui.timezone)),
    /** `7 days`, `1 hour` */
    duration: (ms: number): string => {
      const { n, unit } = durationParts(ms);
      return t(`common.units.${unit}`, { n }, n);
    },
  };
}
