// Login page of a server with only an OAuth provider: no password form, the provider
// button, automatic redirect to the only provider, and the welcome message as
// markdown without raw HTML.
import { expect, test } from './fixtures.js';

const authorizeUrl = 'http://127.0.0.1:9/authorize';

test.use({
  serverConfig: {
    backend: {
      auth: {
        internal: { enabled: false },
        oauth: {
          example: {
            enabled: true,
            name: 'Example ID',
            'authorize-url': authorizeUrl,
            'token-url': 'http://127.0.0.1:9/token',
            'user-url': 'http://127.0.0.1:9/user',
            'user-id-key': 'login',
            'client-id': 'pier',
            'client-secret': 'secret',
          },
        },
      },
    },
    webapp: { 'welcome-message': '# Welcome aboard\n\nUse **your** company account. <script>window.injected = 1</script>' },
  },
});

test('with a single provider the login page goes straight to it', async ({ page }) => {
  await page.route(`${authorizeUrl}**`, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<h1>Provider</h1>' }));
  await page.goto('/app/login');
  await expect(page).toHaveURL(new RegExp(`^${authorizeUrl}\\?`));
  await expect(page.getByRole('heading', { name: 'Provider' })).toBeVisible();
});

test('without auto-redirect it shows the provider button and the welcome message, no form', async ({ page }) => {
  await page.goto('/app/login?auto=0');
  await expect(page.getByRole('link', { name: 'Sign in with Example ID' })).toHaveAttribute('href', '/api/v2/open/auth/oauth/example');
  await expect(page.getByLabel('User name')).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Welcome aboard' })).toBeVisible();
  await expect(page.locator('.welcome strong')).toHaveText('your');
  await expect(page.locator('.welcome')).toContainText('<script>window.injected = 1</script>');
  expect(await page.evaluate(() => (window as unknown as { injected?: number }).injected)).toBeUndefined();
});
