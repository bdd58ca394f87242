// Translations: one file per area and language, `<area>.<lang>.ts`, each exporting
// the messages of that area as its default export. Keys are `<area>.<key>`, e.g.
// `t('shares.title')`. Every file is picked up automatically; every key must exist in
// every language (test/unit/renderer/i18n.test.ts checks this).
import { createI18n } from 'vue-i18n';

export const languages = [
  { id: 'gb', label: 'English' },
  { id: 'de', label: 'Deutsch' },
  { id: 'fr', label: 'Français' },
] as const;

export type Language = (typeof languages)[number]['id'];

export function isLanguage(value: unknown): value is Language {
  return languages.some((l) => l.id === value);
}

/** A tree of messages: strings, nested groups. */
export interface MessageTree {
  [key: string]: string | MessageTree;
}

const files = import.meta.glob<{ default: MessageTree }>('./*.*.ts', { eager: true });

/** All messages by language and area, built from the files of this folder. */
export const messages: Record<Language, MessageTree> = { gb: {}, de: {}, fr: {} };
for (const [path, mod] of Object.entries(files)) {
  const match = /\.\/([\w-]+)\.(\w+)\.ts$/.exec(path);
  if (!match || !isLanguage(match[2])) continue;
  messages[match[2]][match[1]!] = mod.default;
}

export const i18n = createI18n({
  legacy: false,
  locale: 'gb',
  fallbackLocale: 'gb',
  messages,
  missingWarn: import.meta.env.DEV,
  fallbackWarn: import.meta.env.DEV,
});
