// The languages of the client, in the order of the language menu. Ids are the codes
// of `webapp.default-language` and of the stored choice. A language marked `fallback`
// has no translation yet: it can be chosen, and the client then shows English.

export const languages = [
  { id: 'gb', label: 'English', locale: 'en-GB' },
  { id: 'de', label: 'Deutsch', locale: 'de-DE' },
  { id: 'es', label: 'Español', locale: 'es-ES' },
  { id: 'fr', label: 'Français', locale: 'fr-FR' },
  { id: 'it', label: 'Italiano', locale: 'it-IT' },
  { id: 'cz', label: 'Čeština', locale: 'cs-CZ', fallback: true },
  { id: 'br', label: 'Português (Brasil)', locale: 'pt-BR', fallback: true },
  { id: 'ja', label: '日本語', locale: 'ja-JP', fallback: true },
] as const;

type Entry = (typeof languages)[number];

export type Language = Entry['id'];
/** a language with its own translation files */
export type TranslatedLanguage = Exclude<Entry, { fallback: true }>['id'];

/** The language whose texts stand in for an untranslated one. */
export const fallbackLanguage = 'gb' satisfies TranslatedLanguage;

export function isLanguage(value: unknown): value is Language {
  return languages.some((l) => l.id === value);
}

export function isTranslated(language: Language): language is TranslatedLanguage {
  return !languages.some((l) => l.id === language && 'fallback' in l);
}

/** The language the texts are shown in: the language itself, or English for now. */
function shownLanguage(language: Language): TranslatedLanguage {
  return isTranslated(language) ? language : fallbackLanguage;
}

/** The BCP 47 tag of the texts shown for a language, for `<html lang>` and dates. */
export function localeOf(language: Language): string {
  const shown = shownLanguage(language);
  return languages.find((l) => l.id === shown)!.locale;
}

// A browser's language tags by their primary subtag: `de-AT` → `de`, `pt-BR` → `br`, `cs` → `cz`.
const byPrimaryTag: Record<string, Language> = { en: 'gb', de: 'de', es: 'es', fr: 'fr', it: 'it', cs: 'cz', pt: 'br', ja: 'ja' };

/** The first of the browser's preferred languages (`navigator.languages`) the client has, if any. */
export function languageOfTags(tags: readonly string[]): Language | undefined {
  for (const tag of tags) {
    const language = byPrimaryTag[tag.split('-')[0]!.toLowerCase()];
    if (language) return language;
  }
  return undefined;
}
