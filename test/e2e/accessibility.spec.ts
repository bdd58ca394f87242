// axe finds no serious or critical accessibility violations, in light and dark, on the
// pages no journey spec checks: new share, the owner's share page, login, not found (the
// share list, the recipient's pages and the guest page are checked in both themes by
// home, recipient and guest-page specs). Screenshots go to test-results/screenshots/.
import type { Page } from '@playwright/test';
import { pngImage } from './helpers.js';
import { expectAccessible } from './page-checks.js';
import { expect, test } from './fixtures.js';

const themes = ['light', 'dark'] as const;

async function check(page: Page, name: string, ready: () => Promise<void>): Promise<void> {
  for (const theme of themes) {
    await page.evaluate((t) => localStorage.setItem('uiTheme', t), theme);
    await page.reload();
    await ready();
    await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /dark/ : /^(?!.*dark).*$/);
    await page.screenshot({ path: `test-results/screenshots/${name}-${theme}.png`, fullPage: true });
    await expectAccessible(page, `${name} (${theme})`);
  }
}

test('owner pages: new share, share page', async ({ userPage: page, api, user }) => {
  const shareId = await api.createShare(user.token, { name: 'Photos from the trip', description: '# Trip\n\nSome *pictures*.', maxViews: 50 });
  await api.addFiles(user.token, shareId, [
    { name: 'beach.png', content: await pngImage(), type: 'image/png' },
    { name: 'notes.txt', content: 'hello\n', type: 'text/plain' },
  ]);
  await api.publish(user.token, shareId);

  await page.goto('/app/share');
  await check(page, 'new-share', async () => {
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  });

  await page.goto(`/app/upload/${shareId}`);
  await check(page, 'share', async () => {
    await expect(page.locator('[data-test=share-title]')).toBeVisible();
    await page.locator('[data-test=tab-link]').click();
    await expect(page.locator('[data-test=qr]')).toBeVisible();
  });
});

test('public pages: login, not found', async ({ browser, server }) => {
  const context = await browser.newContext({ baseURL: server.url });
  const page = await context.newPage();

  await page.goto('/app/login');
  await check(page, 'login', async () => {
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  });

  await page.goto('/app/no/such/page');
  await check(page, 'not-found', async () => {
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  });
  await context.close();
});
