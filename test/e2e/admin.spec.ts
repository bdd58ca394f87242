// Administration through the UI: an admin creates an account, disables it, and the
// disabled account can no longer sign in. Also the settings and invitation pages:
// accessibility and screenshots in light and dark.
import { expect, signInContext, test, uniqueLogin } from './fixtures.js';
import { expectAccessible, screenshotsLightDark } from './page-checks.js';

test('an admin creates and disables an account; the disabled account cannot sign in', async ({ adminPage: page, browser, api, server }) => {
  const login = uniqueLogin('ann');
  const password = 'ann-secret-1';

  await page.goto('/app/account');
  await expect(page.getByRole('heading', { level: 1, name: 'Accounts' })).toBeVisible();
  await page.getByRole('link', { name: 'New account' }).click();
  await expect(page).toHaveURL(/\/app\/account\/new$/);
  await page.getByLabel('Login').fill(login);
  await page.getByLabel('E-mail').fill('ann@example.org');
  await page.locator('#account-password').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('status')).toContainText('Account created.');
  await expect(page).toHaveURL(/\/app\/account\/(?!new)[^/]+$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(login);

  // The new account works...
  await api.signIn(login, password);

  // ...until the admin disables it.
  await page.getByLabel('State').selectOption('Disabled');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status')).toContainText('Account saved.');
  await screenshotsLightDark(page, 'admin-account-edit', { axe: true });

  await page.getByRole('link', { name: 'All accounts' }).click();
  await page.getByLabel('Search by login').fill(login);
  const row = page.locator(`tr[data-login="${login}"]`);
  await expect(row.locator('[data-test=account-state]')).toHaveText('Disabled');
  await expect(page.locator('[data-test=account-table] tbody tr')).toHaveCount(1);
  await screenshotsLightDark(page, 'admin-accounts', { axe: true });

  const stranger = await browser.newContext({ baseURL: server.url });
  const other = await stranger.newPage();
  await other.goto('/app/login');
  await other.getByLabel('User name').fill(login);
  await other.getByLabel('Password', { exact: true }).fill(password);
  await other.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(other.getByRole('alert')).toBeVisible();
  await expect(other).toHaveURL(/\/app\/login/);
  const res = await server.request<{ success: boolean }>('POST', '/api/v2/open/auth/login', { account: login, password });
  expect(res.body.success).toBe(false);
  await stranger.close();
});

test('an admin deletes an account after confirming', async ({ adminPage: page, api }) => {
  const victim = await api.createAccount();
  await page.goto('/app/account');
  await page.getByLabel('Search by login').fill(victim.login);
  await page.getByRole('link', { name: victim.login }).click();
  await page.getByRole('button', { name: 'Delete account' }).click();
  await page.locator('[data-test=confirm-yes]').click();
  await expect(page).toHaveURL(/\/app\/account$/);
  await page.getByLabel('Search by login').fill(victim.login);
  await expect(page.getByText('No accounts found.')).toBeVisible();
});

test('a user changes the e-mail and the time zone on the settings page', async ({ userPage: page }) => {
  await page.goto('/app/settings');
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await page.getByLabel('E-mail', { exact: true }).fill('me@example.org');
  await page.getByRole('button', { name: 'Save e-mail' }).click();
  await expect(page.getByRole('status')).toContainText('E-mail address saved.');

  await page.getByLabel('Find a time zone').fill('tokyo');
  await page.locator('#tz-select').selectOption('Asia/Tokyo');
  await expect(page.locator('[data-test=timezone-current]')).toContainText('Asia/Tokyo');
  await page.reload();
  await expect(page.locator('[data-test=timezone-current]')).toContainText('Asia/Tokyo');
  await expect(page.getByLabel('E-mail', { exact: true })).toHaveValue('me@example.org');
  await screenshotsLightDark(page, 'settings', { axe: true });
});

test('the invitation page and the desktop page outside the desktop app', async ({ adminPage: page }) => {
  await page.goto('/app/newinvite');
  await expect(page.getByRole('heading', { level: 1, name: 'New invitation' })).toBeVisible();
  await expectAccessible(page, 'new invitation');
  await page.goto('/app/desktop');
  await expect(page.locator('[data-test=desktop-unavailable]')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Desktop' })).toHaveCount(0);
});

// Regression: a German page said "Die Anfrage wurde nicht angenommen: Invalid value for 'email': ...".
for (const [size, device] of [
  ['phone', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }],
  ['desktop', { viewport: { width: 1280, height: 900 } }],
] as const) {
  test(`a field the server refuses is named in the page's language (${size})`, async ({ browser, api, server }) => {
    const context = await browser.newContext({ ...device, baseURL: server.url, locale: 'de-DE' });
    await context.addInitScript(() => localStorage.setItem('language', 'de'));
    await signInContext(context, server.url, await api.admin());
    const page = await context.newPage();
    await page.goto('/app/account/new');
    await page.getByLabel('Login').fill(uniqueLogin('bea'));
    await page.getByLabel('E-Mail').fill('kein postfach');
    await page.locator('#account-password').fill('bea-secret-1');
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/v2/admin/account') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Konto anlegen' }).click();
    expect((await answer).status()).toBe(400);
    await expect(page.getByRole('alert')).toHaveText('Der Wert von „E-Mail-Adresse“ ist ungültig.');
    await expect(page.locator('body')).not.toContainText('Invalid value');
    await context.close();
  });
}
