// The server's default language and theme apply until the user chooses otherwise: to a
// browser whose languages the client does not have, and whose colour scheme is light
// (what browsers report when their user never chose; only dark counts as a wish).
import { expect, test } from './fixtures.js';

test.use({ serverConfig: { webapp: { 'default-language': 'de', 'initial-theme': 'dark' } }, locale: 'sv-SE', colorScheme: 'light' });

test('server defaults German and dark apply until the user chooses', async ({ page }) => {
  await page.goto('/app/login');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de-DE');
  await expect(page.locator('html')).toHaveClass(/dark/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Bei Pier anmelden');
  await page.locator('[data-test=language]').selectOption('gb');
  await page.locator('[data-test=theme-toggle]').click();
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in to Pier');
  await expect(page.locator('html')).not.toHaveClass(/dark/);
});
