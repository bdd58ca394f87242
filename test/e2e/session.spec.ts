// The session in the browser: the client renews its token every `webapp.auth-renewal`; when the
// session ends elsewhere ("sign out everywhere" on another device), the next renewal (401) sends
// the user to the login page with the page they were on, and signing in again brings them back.
// A page for people without an account stays where it is. Before, a renewal answered 401
// dropped the session and left the user on a page that no longer worked.
import { expect, test } from './fixtures.js';
import { loginReturnPath, signInWithForm, storedToken } from './helpers.js';

test.use({ serverConfig: { webapp: { 'auth-renewal': '1 second' } } });

test('renews the token in the background and goes to the login page when a renewal finds the session ended', async ({ userPage: page, user, api }) => {
  await page.goto('/app/uploads?q=holiday');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your shares');
  const first = await storedToken(page);
  const renewal = await page.waitForResponse((r) => r.url().endsWith('/api/v2/sec/auth/session'));
  expect(renewal.status()).toBe(200);
  // tokens carry their issue time in seconds: a later renewal brings another one
  await expect.poll(() => storedToken(page), { timeout: 5000 }).not.toBe(first);

  await api.signOutEverywhere(user);
  // no click: the next renewal is answered 401
  await expect.poll(() => loginReturnPath(page)).toBe('/uploads?q=holiday');
  expect(await storedToken(page)).toBeNull();
  await page.screenshot({ path: 'test-results/screenshots/session-ended-login.png', fullPage: true });
  await signInWithForm(page, user.login, user.password);
  await expect(page).toHaveURL(/\/app\/uploads\?q=holiday$/);
});

test('leaves a published share open when a renewal finds the session ended', async ({ userPage: page, user, api }) => {
  const shareId = await api.createShare(user.token, { name: 'For the neighbours' });
  await api.addFiles(user.token, shareId, [{ name: 'note.txt', content: 'hello' }]);
  const pid = await api.publish(user.token, shareId);
  await page.goto(`/app/open/${pid}`);
  await expect(page.getByText('note.txt')).toBeVisible();
  await api.signOutEverywhere(user);
  const ended = await page.waitForResponse((r) => r.url().endsWith('/api/v2/sec/auth/session') && r.status() === 401);
  expect(ended.status()).toBe(401);
  await expect.poll(() => storedToken(page)).toBeNull();
  await expect(page).toHaveURL(new RegExp(`/app/open/${pid}$`));
  await expect(page.getByText('note.txt')).toBeVisible();
});
