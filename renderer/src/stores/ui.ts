// Per-browser preferences: language, light/dark theme and time zone, kept in localStorage.
// Until the user chooses, the language is the browser's (else the server's default) and
// the theme is dark when the browser asks for dark, else the server's initial theme.
import { defineStore } from 'pinia';
import { computed, ref, watch } from 'vue';
import { isLanguage, languageOfTags, languages, localeOf, setI18nLanguage, type Language } from '../i18n';
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

/** The browser's preferred languages, most wanted first. */
function browserTags(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? navigator.languages : navigator.language ? [navigator.language] : [];
}

const darkQuery = '(prefers-color-scheme: dark)';

/**
 * Whether the browser asks for dark. Browsers whose user never chose report light,
 * so only dark is a wish; light leaves the choice to the server's initial theme.
 */
function browserWantsDark(): boolean {
  return typeof window !== 'undefined' && !!window.matchMedia && window.matchMedia(darkQuery).matches;
}

export const useUiStore = defineStore('ui', () => {
  const settings = useSettingsStore();

  /** stored choice > browser > server default > English */
  const storedLanguage = read(keys.language);
  const initialLanguage: Language = isLanguage(storedLanguage)
    ? storedLanguage
    : (languageOfTags(browserTags()) ??
      (isLanguage(settings.config.defaultLanguage) ? settings.config.defaultLanguage : 'gb'));
  const language = ref<Language>(initialLanguage);

  /** stored choice > dark when the browser asks for it (followed while it changes) > server's initial theme */
  const storedTheme = read(keys.theme);
  const chosenTheme = storedTheme === 'dark' || storedTheme === 'light' ? storedTheme : null;
  const unchosenTheme = (): Theme => (browserWantsDark() ? 'dark' : settings.config.initialTheme);
  const theme = ref<Theme>(chosenTheme ?? unchosenTheme());
  let themeChosen = chosenTheme !== null;
  if (typeof window !== 'undefined' && window.matchMedia) {
    window.matchMedia(darkQuery).addEventListener('change', () => {
      if (!themeChosen) theme.value = unchosenTheme();
    });
  }

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

  /** What the current page puts in front of its name in the tab title (the player: the playing song), or null. */
  const titleDetail = ref<string | null>(null);

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
  // only a choice is stored: a theme that follows the browser keeps following it
  watch(theme, () => apply());
  watch(timezonePreference, (z) => write(keys.timezone, z || null));

  function setLanguage(l: Language): void {
    language.value = l;
  }
  function toggleTheme(): void {
    theme.value = theme.value === 'dark' ? 'light' : 'dark';
    themeChosen = true;
    write(keys.theme, theme.value);
  }
  /** Sets the time zone; an empty string goes back to automatic. */
  function setTimezone(zone: string): void {
    timezonePreference.value = zone;
  }

  return { language, languages, theme, titleDetail, timezone, timezonePreference, locale, setLanguage, toggleTheme, setTimezone };
});
