// The server's rule for new account passwords (`passwordMinLength`), shown under every
// new-password field and checked before sending.
import { computed } from 'vue';
import { useI18n } from 'vue-i18n';
import { useSettingsStore } from '../stores/settings';

export function usePasswordRule() {
  const { t } = useI18n();
  const settings = useSettingsStore();
  const min = computed(() => settings.config.passwordMinLength);
  return {
    min,
    /** "At least 8 characters" */
    hint: computed(() => t('auth.password.rule', { n: min.value }, min.value)),
    /** "The password needs at least 8 characters." */
    problem: computed(() => t('auth.password.tooShort', { n: min.value }, min.value)),
    /** whether a password breaks the rule; characters are counted as the server counts them (an emoji is one) */
    tooShort: (password: string): boolean => [...password].length < min.value,
  };
}
