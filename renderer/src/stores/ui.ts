// Per-browser preferences: language, light/dark theme and time zone, kept in localStorage.
import { defineStore } from 'pinia';
import { computed, ref, watch } from 'vue';
import { isLanguage, languages, localeOf, setI18nLanguage, type Language } from '../i18n';
import { useSettingsStore } from './settings';

export type Theme = 'light' | 'dark';

const keys = { language: 'language', theme: 'uiTheme', timezone: 'timezone' } as const;

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // Storage may be disabled (private mode); the choice then lasts for this page only.
  }
}

export const useUiStore = defineStore('ui', () => {
  const settings = useSettingsStore();

  const storedLanguage = read(keys.language);
  const initialLanguage: Language = isLanguage(storedLanguage)
    ? storedLanguage
    : isLanguage(settings.config.defaultLanguage)
      ? settings.config.defaultLanguage
      : 'gb';
  const language = ref<Language>(initialLanguage);

  const storedTheme = read(keys.theme);
  const theme = ref<Theme>(storedTheme === 'dark' || storedTheme === 'light' ? storedTheme : settings.config.initialTheme);

  /** the user's chosen IANA zone; empty: automatic */
  const timezonePreference = ref<string>(read(keys.timezone) ?? '');

  /** user choice > browser > server default > UTC */
  const timezone = computed(() => {
    if (timezonePreference.value) return timezonePreference.value;
    const browser = Intl.DateTimeFormat().resolvedOptions().timeZone;
    return browser || settings.config.defaultTimezone || 'UTC';
  });

  /** the BCP 47 tag of the shown texts, for `<html lang>` and date formatting */
  const locale = computed(() => localeOf(language.value));

  function apply(): void {
    setI18nLanguage(language.value);
    document.documentElement.lang = locale.value;
    document.documentElement.classList.toggle('dark', theme.value === 'dark');
    document.documentElement.style.colorScheme = theme.value;
  }
  apply();

  watch(language, (l) => {
    write(keys.language, l);
    apply();
  });
  watch(theme, (t) => {
    write(keys.theme, t);
    apply();
  });
  watch(timezonePreference, (z) => write(keys.timezone, z || null));

  function setLanguage(l: Language): void {
    language.value = l;
  }
  function toggleTheme(): void {
    theme.value = theme.value === 'dark' ? 'light' : 'dark';
  }
  /** Sets the time zone; an empty string goes back to automatic. */
  function setTimezone(zone: string): void {
    timezonePreference.value = zone;
  }

  return { language, languages, theme, timezone, timezonePreference, locale, setLanguage, toggleTheme, setTimezone };
});
