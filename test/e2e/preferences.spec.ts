// Language and dark mode are remembered across reloads.
import { expect, test } from './fixtures.js';

test('switching to German and to dark mode survives a reload', async ({ userPage: page }) => {
  await page.goto('/app/uploads');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your shares');
  await expect(page.locator('html')).not.toHaveClass(/dark/);

  await page.locator('[data-test=language]').selectOption('de');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Eigene Freigaben');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de-DE');
  await page.locator('[data-test=theme-toggle]').click();
  await expect(page.locator('html')).toHaveClass(/dark/);
  const darkBackground = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);

  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Eigene Freigaben');
  await expect(page.getByRole('link', { name: 'Neue Freigabe' }).first()).toBeVisible();
  await expect(page.locator('html')).toHaveClass(/dark/);
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(darkBackground);
  expect(darkBackground).not.toBe('rgb(246, 247, 249)');
  await expect(page).toHaveTitle(/Eigene Freigaben/);

  await page.locator('[data-test=language]').selectOption('fr');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Vos partages');
});
