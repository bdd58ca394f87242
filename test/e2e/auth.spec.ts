// Sign-in through the login page: back to the page asked for, failures, sign-out,
// a session ended elsewhere, registration.
import { expect, test, uniqueLogin } from './fixtures.js';
import { loginReturnPath, signInWithForm, storedToken } from './helpers.js';

test('the login page signs in and goes back to the page asked for', async ({ page, user }) => {
  await page.goto('/app/uploads?q=abc');
  await expect(page).toHaveURL(/\/app\/login\?r=/);
  await page.getByLabel('User name').fill(user.login);
  await page.getByLabel('Password', { exact: true }).fill('wrong');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.locator('[data-test=login-error]')).toBeVisible();
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/app\/uploads\?q=abc$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your shares');

  await page.locator('[data-test=sign-out]').click();
  await expect(page).toHaveURL(/\/app\/login\?auto=0$/);
  await page.goto('/app/home');
  await expect(page).toHaveURL(/\/app\/login\?r=/);
});

test('a 401 from the API sends the user to the login page and back after signing in', async ({ userPage: page, user, api }) => {
  await page.goto('/app/uploads?q=holiday');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your shares');
  await api.signOutEverywhere(user);
  // the home page asks the API for the recent shares: 401
  await page.getByRole('navigation').getByRole('link', { name: 'Home' }).click();
  await expect.poll(() => loginReturnPath(page)).toBe('/home');
  expect(await storedToken(page)).toBeNull();
  await signInWithForm(page, user.login, user.password);
  await expect(page).toHaveURL(/\/app\/home$/);
});

test('a new user registers and is signed in on the start page', async ({ page }) => {
  const login = uniqueLogin('reg');
  await page.goto('/app/login');
  await page.getByRole('link', { name: 'Register' }).click();
  await page.getByLabel('User name').fill(login);
  await page.getByLabel('Password', { exact: true }).fill('a good password');
  await page.getByLabel('Repeat password').fill('a good password');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/app\/home$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(login);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toContainText(login);
});
