// Everyone's language: a fresh browser starts in its own language and colour scheme
// (a choice of the user wins, the server's defaults apply when the browser says
// nothing), server results show in the user's language by their code, sizes use the
// locale's notation, and registering shows the password rule before typing, refuses a
// short password before sending and signs the new user in, on a phone and a desktop,
// with axe in light and dark where the screenshots of the register page are taken for
// docs/screens/ (`npm run screens`).
import type { Browser, BrowserContextOptions, Page } from '@playwright/test';
import { checkBothThemes, expectAccessible } from './page-checks.js';
import { combos } from './combos.js';
import { expect, test, uniqueLogin } from './fixtures.js';
import type { TestServer } from '../support/server.js';

// The server's default language: used only when the browser names no language of the client.
test.use({ serverConfig: { webapp: { 'default-language': 'it' } } });

const isDark = (page: Page): Promise<boolean> => page.evaluate(() => document.documentElement.classList.contains('dark'));

async function freshPage(browser: Browser, server: TestServer, options: BrowserContextOptions): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.url, ...options });
  return context.newPage();
}

test('a fresh German browser that prefers dark starts in German and dark, and follows its scheme until the user chooses', async ({ browser, server }) => {
  const page = await freshPage(browser, server, { locale: 'de-DE', colorScheme: 'dark' });
  await page.goto('/app/login');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Bei Pier anmelden');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de-DE');
  await expect(page.locator('[data-test=language]')).toHaveValue('de');
  await expect.poll(() => isDark(page)).toBe(true);
  await expectAccessible(page, 'login (German, dark from the browser)');

  // not chosen yet: the page follows the browser's scheme as it changes
  await page.emulateMedia({ colorScheme: 'light' });
  await expect.poll(() => isDark(page)).toBe(false);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(() => isDark(page)).toBe(true);

  // chosen: the choice stays, whatever the browser prefers, also after a reload
  await page.locator('[data-test=theme-toggle]').click();
  await expect.poll(() => isDark(page)).toBe(false);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.locator('[data-test=language]').selectOption('fr');
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Se connecter à Pier');
  await expect.poll(() => isDark(page)).toBe(false);
  await page.context().close();
});

test('the browser’s language maps to the client’s; without one the client has, the server’s default applies', async ({ browser, server }) => {
  const cases = [
    { locale: 'de-AT', heading: 'Bei Pier anmelden', language: 'de', lang: 'de-DE' },
    { locale: 'pt-BR', heading: 'Sign in to Pier', language: 'br', lang: 'en-GB' },
    { locale: 'es-MX', heading: 'Inicia sesión en Pier', language: 'es', lang: 'es-ES' },
    // Swedish is not among the client's languages: the server's default language (Italian)
    { locale: 'sv-SE', heading: 'Accedi a Pier', language: 'it', lang: 'it-IT' },
  ];
  for (const c of cases) {
    const page = await freshPage(browser, server, { locale: c.locale, colorScheme: 'light' });
    await page.goto('/app/login');
    await expect(page.getByRole('heading', { level: 1 }), c.locale).toHaveText(c.heading);
    await expect(page.locator('[data-test=language]'), c.locale).toHaveValue(c.language);
    await expect(page.locator('html'), c.locale).toHaveAttribute('lang', c.lang);
    expect(await isDark(page), c.locale).toBe(false);
    await page.context().close();
  }
});

test.describe('in German', () => {
  test.use({ locale: 'de-DE' });

  test('server results show in German by their code, and sizes in German notation', async ({ userPage: page, api, user }) => {
    const shareId = await api.createShare(user.token, { name: 'Urlaub', maxViews: 5 });
    await api.addFiles(user.token, shareId, [{ name: 'video.bin', content: new Uint8Array(1.5 * 1024 * 1024) }]);

    await page.goto(`/app/upload/${shareId}`);
    await expect(page.locator('[data-test=file-list]')).toContainText('1,5 MB');
    await expect(page.locator('[data-test=zip-size]')).toHaveText('ZIP: 1,5 MB (höchstens 1,5 GB)');
    await page.locator('[data-test=publish]').click();
    await expect(page.locator('[data-test=notice]')).toHaveText('Freigabe veröffentlicht.');

    // a refusal of the server, by its code
    await page.goto('/app/settings');
    await page.getByLabel('Aktuelles Passwort').fill('not my password');
    await page.getByLabel('Neues Passwort', { exact: true }).fill('a long new password');
    await page.getByLabel('Neues Passwort wiederholen').fill('a long new password');
    await page.getByRole('button', { name: 'Passwort ändern' }).click();
    await expect(page.getByRole('alert')).toHaveText('Das aktuelle Passwort ist falsch.');
    // the rule under the new password, checked before sending
    await expect(page.locator('#settings-new-password-hint')).toHaveText('Mindestens 8 Zeichen');
    await page.getByLabel('Aktuelles Passwort').fill(user.password);
    await page.getByLabel('Neues Passwort', { exact: true }).fill('kurz');
    await page.getByLabel('Neues Passwort wiederholen').fill('kurz');
    await page.getByRole('button', { name: 'Passwort ändern' }).click();
    await expect(page.getByRole('alert')).toHaveText('Das Passwort braucht mindestens 8 Zeichen.');
    expect((await api.signIn(user.login, user.password)).success).toBe(true);
    await expectAccessible(page, 'settings (German)');
  });

  test('an admin sees the server’s refusal in German', async ({ adminPage: page, user }) => {
    await page.goto('/app/account/new');
    await expect(page.locator('#account-password-hint')).toContainText('Mindestens 8 Zeichen');
    await page.getByLabel('Login').fill(user.login);
    await page.locator('#account-password').fill('a long password');
    await page.getByRole('button', { name: 'Konto anlegen' }).click();
    await expect(page.getByRole('alert')).toHaveText('Ein Konto mit diesem Namen gibt es schon.');
  });
});

const screens = {
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  desktop: { viewport: { width: 1280, height: 800 } },
} as const;

const words = {
  gb: { locale: 'en-GB', user: 'User name', password: 'Password', repeat: 'Repeat password', submit: 'Create account', rule: 'At least 8 characters', tooShort: 'The password needs at least 8 characters.', welcome: 'Welcome' },
  de: { locale: 'de-DE', user: 'Benutzername', password: 'Passwort', repeat: 'Passwort wiederholen', submit: 'Konto anlegen', rule: 'Mindestens 8 Zeichen', tooShort: 'Das Passwort braucht mindestens 8 Zeichen.', welcome: 'Willkommen' },
} as const;

for (const { screen, theme, lang } of combos) {
  test(`registering shows the password rule before typing, refuses a short one before sending and signs the new user in (${screen}, ${theme}, ${lang})`, async ({
    browser,
    server,
  }) => {
    const w = words[lang];
    const page = await freshPage(browser, server, { ...screens[screen], locale: w.locale, colorScheme: theme });
    const sent: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/v2/open/signup/register')) sent.push(r.postData() ?? '');
    });
    const login = uniqueLogin('new');
    await page.goto('/app/register');
    await expect.poll(() => isDark(page)).toBe(theme === 'dark');
    // a name for the screenshots; the account gets a unique one when it is made
    await page.getByLabel(w.user).fill('maria');
    // the rule is there before anything is typed, tied to the field
    const rule = page.locator('[data-test=password-rule]');
    await expect(rule).toHaveText(w.rule);
    await expect(page.getByLabel(w.password, { exact: true })).toHaveAttribute('aria-describedby', 'reg-password-hint');
    await checkBothThemes(page, `register (${screen}, ${lang})`, `register-${screen}`);

    // 7 characters: refused here, nothing sent
    await page.getByLabel(w.password, { exact: true }).fill('1234567');
    await page.getByLabel(w.repeat).fill('1234567');
    await page.getByRole('button', { name: w.submit }).click();
    await expect(page.getByRole('alert')).toHaveText(w.tooShort);
    await expect(page.getByLabel(w.password, { exact: true })).toHaveAttribute('aria-invalid', 'true');
    await checkBothThemes(page, `register with a short password (${screen}, ${lang})`, `register-refused-${screen}`);
    expect(sent).toEqual([]);

    // a valid one: the account is made and the user is signed in on the start page
    await page.getByLabel(w.user).fill(login);
    await page.getByLabel(w.password, { exact: true }).fill('12345678');
    await page.getByLabel(w.repeat).fill('12345678');
    await page.getByRole('button', { name: w.submit }).click();
    await expect(page).toHaveURL(/\/app\/home$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${w.welcome}, ${login}`);
    expect(sent).toHaveLength(1);
    const res = await server.request<{ success: boolean }>('POST', '/api/v2/open/auth/login', { account: login, password: '12345678' });
    expect(res.body.success).toBe(true);
    await page.context().close();
  });
}
