import { expect, test } from './fixtures.js';

test('the login page signs in and goes back to the page asked for', async ({ page, user }) => {
  await page.goto('/app/home');
  await expect(page).toHaveURL(/\/app\/login\?r=(%2F|\/)home/);
  await page.getByLabel('User name').fill(user.login);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/app\/home$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(user.login);
});
