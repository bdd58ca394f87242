// Translations: one file per area and language, `<area>.<lang>.ts`, each exporting
// the messages of that area as its default export. Keys are `<area>.<key>`, e.g.
// `t('shares.title')`. Every file is picked up automatically; every key must exist in
// every translated language (test/unit/renderer/i18n.test.ts checks this). Languages
// without files (see ./languages.ts) show the English texts through the fallback locale.
// The area `messages` holds the server's results by their code (`messages.share.published`),
// shown through lib/errors.ts.
import { createI18n } from 'vue-i18n';
import { fallbackLanguage, isTranslated, languages, type Language, type TranslatedLanguage } from './languages';

export * from './languages';

/** A tree of messages: strings, nested groups. */
export interface MessageTree {
  [key: string]: string | MessageTree;
}

const files = import.meta.glob<{ default: MessageTree }>('./*.*.ts', { eager: true });

/** All messages by translated language and area, built from the files of this folder. */
const messages = Object.fromEntries(
  languages.filter((l) => isTranslated(l.id)).map((l) => [l.id, {}]),
) as Record<TranslatedLanguage, MessageTree>;
for (const [path, mod] of Object.entries(files)) {
  const match = /\.\/([\w-]+)\.(\w+)\.ts$/.exec(path);
  if (!match || !Object.hasOwn(messages, match[2]!)) continue;
  messages[match[2] as TranslatedLanguage][match[1]!] = mod.default;
}

export const i18n = createI18n({
  legacy: false,
  locale: fallbackLanguage as Language,
  fallbackLocale: fallbackLanguage,
  // typed by every language, so that an untranslated one can be the locale
  messages: messages as Partial<Record<Language, MessageTree>>,
  missingWarn: import.meta.env.DEV,
  fallbackWarn: import.meta.env.DEV,
});

/**
 * Switches the texts to a language. An untranslated one keeps its own locale, so
 * vue-i18n falls back to English for every key; the warnings about missing keys, which
 * point to a forgotten translation in a translated language, are then expected noise.
 */
export function setI18nLanguage(language: Language): void {
  const g = i18n.global;
  g.locale.value = language;
  g.missingWarn = import.meta.env.DEV && isTranslated(language);
  g.fallbackWarn = import.meta.env.DEV && isTranslated(language);
}
