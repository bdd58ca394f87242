// The client speaks the user's language: server results by their code, sizes and numbers
// in the locale's notation, and the browser's language when the user has not chosen one.
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { resultCodes } from '../../../server/common/result.js';
import { languageOfTags } from '../../../renderer/src/i18n/languages.js';

const src = fileURLToPath(new URL('../../../renderer/src/', import.meta.url));

/** Modules that import the i18n setup (typed by the renderer's tsconfig, with Vite's types). */
interface Errors {
  resultMessage(result: { message: string; code?: string }): string;
  errorMessage(error: unknown): string;
}
interface Format {
  formatSize(bytes: number, locale?: string): string;
  formatNumber(n: number, locale?: string): string;
}
interface Setup {
  setI18nLanguage(language: string): void;
}
interface Http {
  ApiError: new (status: number, message: string, code?: string, field?: string) => Error;
}
const load = async <T>(path: string): Promise<T> => (await import(pathToFileURL(`${src}${path}`).href)) as T;

type Tree = { [key: string]: string | Tree };
const keys = (tree: Tree, prefix = ''): string[] =>
  Object.entries(tree).flatMap(([k, v]) => (typeof v === 'string' ? [`${prefix}${k}`] : keys(v, `${prefix}${k}.`)));

describe('server results in the user’s language', () => {
  afterEach(async () => (await load<Setup>('i18n/index.ts')).setI18nLanguage('gb'));

  it('has a text for every result code the server sends, and no other', async () => {
    const gb = (await load<{ default: Tree }>('i18n/messages.gb.ts')).default;
    expect(keys(gb).sort()).toEqual([...resultCodes].sort());
  });

  it('documents exactly the server’s result codes in openapi.yml', () => {
    const doc = parse(readFileSync(new URL('../../../server/openapi.yml', import.meta.url), 'utf8')) as {
      components: { schemas: { ResultCode: { enum: string[] } } };
    };
    expect(doc.components.schemas.ResultCode.enum).toEqual([...resultCodes]);
  });

  it('shows a known code in the current language and an unknown one as the server said it', async () => {
    const { resultMessage } = await load<Errors>('lib/errors.ts');
    const { setI18nLanguage } = await load<Setup>('i18n/index.ts');
    setI18nLanguage('de');
    expect(resultMessage({ message: 'Share published.', code: 'share.published' })).toBe('Freigabe veröffentlicht.');
    expect(resultMessage({ message: 'The password is wrong.', code: 'share.password-wrong' })).toBe('Das Passwort ist falsch.');
    expect(resultMessage({ message: 'Something new.', code: 'share.something-new' })).toBe('Something new.');
    expect(resultMessage({ message: 'From an older server.' })).toBe('From an older server.');
    // a configured domain-check text is the admin's own words
    expect(resultMessage({ message: 'Keine Viren!', code: 'error.domain-check' })).toBe('Keine Viren!');
    setI18nLanguage('ja');
    expect(resultMessage({ message: 'Share published.', code: 'share.published' })).toBe('Share published.');
    setI18nLanguage('fr');
    expect(resultMessage({ message: 'Upload link created.', code: 'alias.created' })).toBe('Lien de dépôt créé.');
  });

  it('turns a failed call into the text of its code, else the explanation of its status', async () => {
    const { errorMessage } = await load<Errors>('lib/errors.ts');
    const { ApiError } = await load<Http>('api/http.ts');
    const { setI18nLanguage } = await load<Setup>('i18n/index.ts');
    setI18nLanguage('de');
    expect(errorMessage(new ApiError(403, 'The password is wrong.', 'share.password-wrong'))).toBe('Das Passwort ist falsch.');
    expect(errorMessage(new ApiError(200, 'Sorry, registration is closed.', 'signup.closed'))).toBe('Die Registrierung ist auf diesem Server geschlossen.');
    expect(errorMessage(new ApiError(500, 'An unexpected error occurred (error id 1a2b).', 'error.internal'))).toBe(
      'Auf dem Server ist ein Fehler aufgetreten: An unexpected error occurred (error id 1a2b).',
    );
    // a proxy's error page has no code
    expect(errorMessage(new ApiError(404, '404 Not Found'))).toBe('Das gibt es nicht oder nicht mehr.');
  });

  // Regression: a German page said "Die Anfrage wurde nicht angenommen: Invalid value for 'email': ..."
  it('says which field was wrong in the user’s language, by its label; English keeps the server’s fuller words', async () => {
    const { errorMessage } = await load<Errors>('lib/errors.ts');
    const { ApiError } = await load<Http>('api/http.ts');
    const { setI18nLanguage } = await load<Setup>('i18n/index.ts');
    const bad = (field: string) => new ApiError(400, `Invalid value for '${field}': 'x' is not an e-mail address.`, 'error.bad-request', field);
    setI18nLanguage('de');
    expect(errorMessage(bad('email'))).toBe('Der Wert von „E-Mail-Adresse“ ist ungültig.');
    expect(errorMessage(bad('meta.colour'))).toBe('Der Wert von „meta.colour“ ist ungültig.');
    setI18nLanguage('fr');
    expect(errorMessage(bad('recipients'))).toBe('La valeur de « destinataires » n’est pas valide.');
    const english = "The request was not accepted: Invalid value for 'email': 'x' is not an e-mail address.";
    setI18nLanguage('gb');
    expect(errorMessage(bad('email'))).toBe(english);
    // an untranslated language gets the server's English rather than half a translation
    setI18nLanguage('ja');
    expect(errorMessage(bad('email'))).toBe(english);
  });
});

describe('sizes and numbers in the locale’s notation', () => {
  afterEach(async () => (await load<Setup>('i18n/index.ts')).setI18nLanguage('gb'));

  it('formats sizes with the locale’s decimal separator (and octets in French)', async () => {
    const { formatSize } = await load<Format>('lib/format.ts');
    expect(formatSize(1.5 * 1024 * 1024, 'en-GB')).toBe('1.5 MB');
    expect(formatSize(1.5 * 1024 * 1024, 'de-DE')).toBe('1,5 MB');
    expect(formatSize(1.5 * 1024 * 1024, 'it-IT')).toBe('1,5 MB');
    expect(formatSize(1.5 * 1024 * 1024, 'fr-FR')).toBe('1,5 Mo');
    expect(formatSize(1000, 'en-GB')).toBe('1,000 B');
    expect(formatSize(1000, 'de-DE')).toBe('1.000 B');
  });

  it('uses the current language when no locale is given', async () => {
    const { formatSize, formatNumber } = await load<Format>('lib/format.ts');
    const { setI18nLanguage } = await load<Setup>('i18n/index.ts');
    setI18nLanguage('de');
    expect(formatSize(1536)).toBe('1,5 KB');
    expect(formatNumber(12345)).toBe('12.345');
    setI18nLanguage('gb');
    expect(formatSize(1536)).toBe('1.5 KB');
  });
});

describe('the browser’s language', () => {
  it('is the first preferred language the client has, by its primary subtag', () => {
    expect(languageOfTags(['de-AT', 'en'])).toBe('de');
    expect(languageOfTags(['pt-BR'])).toBe('br');
    expect(languageOfTags(['cs'])).toBe('cz');
    expect(languageOfTags(['ja-JP'])).toBe('ja');
    expect(languageOfTags(['en-US'])).toBe('gb');
    expect(languageOfTags(['sv-SE', 'fr-CA', 'de'])).toBe('fr');
    expect(languageOfTags(['sv-SE', 'nl'])).toBeUndefined();
    expect(languageOfTags([])).toBeUndefined();
  });
});
