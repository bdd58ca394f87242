// The language menu: translated languages, and the languages without a translation
// yet in a group whose label (in the current language) says they show English.
import { expect, test } from './fixtures.js';

const fallbackNames = ['Čeština', 'Português (Brasil)', '日本語'];

test('the menu lists the untranslated languages with a note, and choosing one shows English', async ({ page }) => {
  await page.goto('/app/login');
  const menu = page.locator('[data-test=language]');
  const group = page.locator('[data-test=language-fallback]');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in to Pier');
  await expect(menu.locator(':scope > option')).toHaveText(['English', 'Deutsch', 'Español', 'Français', 'Italiano']);
  await expect(group).toHaveAttribute('label', 'Shown in English for now');
  await expect(group.locator('option')).toHaveText(fallbackNames);

  await menu.selectOption('de');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Bei Pier anmelden');
  await expect(group).toHaveAttribute('label', 'Vorerst auf Englisch');

  await menu.selectOption('ja');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in to Pier');
  await expect(page.getByLabel('User name')).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en-GB');
  await expect(group).toHaveAttribute('label', 'Shown in English for now');

  await page.reload();
  await expect(menu).toHaveValue('ja');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in to Pier');

  await menu.selectOption('es');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Inicia sesión en Pier');
  await expect(group).toHaveAttribute('label', 'En inglés por ahora');
});

test('a language stored by the browser before the menu grew is still used', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('language', 'fr'));
  await page.goto('/app/login');
  await expect(page.locator('[data-test=language]')).toHaveValue('fr');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Se connecter à Pier');
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr-FR');
});
