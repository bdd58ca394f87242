// The web client's translations: every area has gb, de and fr files with the same
// keys, no empty text, and every message compiles (vue-i18n syntax: a stray `@`, `{`
// or `|` breaks a message at run time).
import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { baseCompile } from '@intlify/message-compiler';
import { describe, expect, it } from 'vitest';

const dir = fileURLToPath(new URL('../../../renderer/src/i18n/', import.meta.url));
const languages = ['gb', 'de', 'fr'];

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

const load = async (area: string, lang: string): Promise<Map<string, string>> => {
  const mod = (await import(pathToFileURL(`${dir}${area}.${lang}.ts`).href)) as { default: Tree };
  return flatten(mod.default);
};

describe('renderer translations', () => {
  it('has only gb, de and fr files', () => {
    for (const f of files) expect(languages, f).toContain(f.split('.')[1]);
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
