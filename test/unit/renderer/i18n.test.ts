// The web client's translations: every area has a file per translated language with
// the same keys, no empty text, and every message compiles (vue-i18n syntax: a stray
// `@`, `{` or `|` breaks a message at run time). Untranslated languages have no files
// and show the English texts.
import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { baseCompile } from '@intlify/message-compiler';
import { describe, expect, it } from 'vitest';
import { isTranslated, languages as all, localeOf, type Language } from '../../../renderer/src/i18n/languages.js';

const dir = fileURLToPath(new URL('../../../renderer/src/i18n/', import.meta.url));
const languages: string[] = all.filter((l) => isTranslated(l.id)).map((l) => l.id);
const untranslated = all.filter((l) => !isTranslated(l.id)).map((l) => l.id);

type Tree = { [key: string]: string | Tree };

const flatten = (tree: Tree, prefix = ''): Map<string, string> => {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out.set(key, v);
    else for (const [kk, vv] of flatten(v, key)) out.set(kk, vv);
  }
  return out;
};

const files = readdirSync(dir).filter((f) => /^[\w-]+\.\w+\.ts$/.test(f));
const areas = [...new Set(files.map((f) => f.split('.')[0]!))];

/** The client's i18n setup (imported by URL: it is typed by the renderer's tsconfig, with Vite's types). */
interface Setup {
  i18n: { global: { t: (key: string, plural?: number) => string; locale: { value: string } } };
  setI18nLanguage: (language: Language) => void;
}
const setup = async (): Promise<Setup> => (await import(pathToFileURL(`${dir}index.ts`).href)) as Setup;

const load = async (area: string, lang: string): Promise<Map<string, string>> => {
  const mod = (await import(pathToFileURL(`${dir}${area}.${lang}.ts`).href)) as { default: Tree };
  return flatten(mod.default);
};

describe('renderer translations', () => {
  it('translates gb, de, es, fr and it, and lists cz, br and ja as English for now', () => {
    expect(languages).toEqual(['gb', 'de', 'es', 'fr', 'it']);
    expect(untranslated).toEqual(['cz', 'br', 'ja']);
  });

  it('has files of translated languages only', () => {
    for (const f of files) expect(languages, f).toContain(f.split('.')[1]);
  });

  it('shows the English texts and locale for an untranslated language', async () => {
    const { i18n, setI18nLanguage } = await setup();
    const t = i18n.global.t;
    try {
      setI18nLanguage('es');
      expect(t('shares.list.title')).toBe('Tus compartidos');
      for (const lang of untranslated) {
        setI18nLanguage(lang);
        expect(i18n.global.locale.value).toBe(lang);
        expect(t('shares.list.title'), lang).toBe('Your shares');
        expect(t('shares.files.count', 2), lang).toBe('2 files');
        expect(localeOf(lang)).toBe('en-GB');
      }
      expect(localeOf('it')).toBe('it-IT');
    } finally {
      setI18nLanguage('gb');
    }
  });

  for (const area of areas) {
    it(`${area}: every language has every key, filled in, compiling`, async () => {
      const gb = await load(area, 'gb');
      expect(gb.size).toBeGreaterThan(0);
      for (const lang of languages) {
        const other = await load(area, lang);
        expect([...other.keys()].sort(), `${area}.${lang} keys`).toEqual([...gb.keys()].sort());
        for (const [key, text] of other) {
          expect(text.trim(), `${area}.${lang}: ${key} is empty`).not.toBe('');
          const errors: string[] = [];
          baseCompile(text, { onError: (e) => errors.push(e.message) });
          expect(errors, `${area}.${lang}: ${key} = ${JSON.stringify(text)}`).toEqual([]);
        }
      }
    });
  }
});
