// The inbox: what arrived through upload links. The home page follows the same live
// list as the header's badge, so "1 new" above never sits on "Nothing new has
// arrived" below; a guest's photos open on their pictures on the owner's page.
import type { Page } from '@playwright/test';
import { pngImage } from './helpers.js';
import { expect, signInContext, test } from './fixtures.js';
import { screenshotsLightDark } from './page-checks.js';

const sizes = {
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  desktop: { viewport: { width: 1280, height: 900 } },
} as const;

const guestUpload = async (url: string, aliasId: string, files: { name: string; content: Blob }[]): Promise<string> => {
  const form = new FormData();
  for (const f of files) form.append('file', f.content, f.name);
  const res = await fetch(`${url}/api/v2/alias/upload`, { method: 'POST', headers: { 'Service-Alias': aliasId }, body: form });
  return ((await res.json()) as { id: string }).id;
};

/** The header's count of new guest uploads, folded in the menu on a phone. */
const badge = (page: Page, phone: boolean) => page.locator(phone ? '[data-test=menu-new-guest-uploads]' : '[data-test=nav-new-guest-uploads]');

for (const [size, device] of Object.entries(sizes)) {
  test(`the home page and the header agree on what is new as it arrives (${size})`, async ({ browser, api, user, server }) => {
    const aliasId = await api.createAlias(user.token, { name: 'Scans' });
    const context = await browser.newContext({ ...device, baseURL: server.url });
    await signInContext(context, server.url, user);
    const page = await context.newPage();
    await page.goto('/app/home');
    await expect(page.locator('[data-test=no-new-guest-uploads]')).toBeVisible();

    const id = await guestUpload(server.url, aliasId, [{ name: 'scan.pdf', content: new Blob(['%PDF-1.4']) }]);
    // the tab comes back to the front: the header looks again
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    await expect(badge(page, size === 'phone')).toBeAttached();
    await expect(page.locator(`[data-test=new-guest-uploads] a[href="/app/upload/${id}"]`)).toBeVisible();
    await expect(page.locator('[data-test=no-new-guest-uploads]')).toHaveCount(0);
    await context.close();
  });

  test(`a guest's photos open on their pictures (${size})`, async ({ browser, api, user, server }) => {
    const aliasId = await api.createAlias(user.token, { name: 'Holiday' });
    const png = new Blob([new Uint8Array(await pngImage())], { type: 'image/png' });
    const id = await guestUpload(server.url, aliasId, [
      { name: 'beach.png', content: png },
      { name: 'sunset.png', content: png },
      { name: 'notes.txt', content: new Blob(['hello']) },
    ]);
    const context = await browser.newContext({ ...device, baseURL: server.url });
    await signInContext(context, server.url, user);
    const page = await context.newPage();
    await page.goto(`/app/upload/${id}`);
    const grid = page.locator('[data-test=owner-photos] [data-test=photo-tile]');
    await expect(grid).toHaveCount(2);
    // the pictures are on the first screen
    const box = await grid.first().boundingBox();
    expect(box!.y).toBeLessThan(device.viewport.height);
    await grid.first().click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await page.keyboard.press('Escape');
    await screenshotsLightDark(page, `inbox-photos-${size}`, { axe: true });
    await context.close();
  });
}

for (const [size, device] of Object.entries(sizes)) {
  test(`shares nobody named are called by what they hold and when, in the viewer's language (${size})`, async ({ browser, api, user, server }) => {
    const files = await api.createShare(user.token, { maxViews: 3 });
    await api.addFiles(user.token, files, [
      { name: 'a.txt', content: 'a' },
      { name: 'b.txt', content: 'b' },
    ]);
    const photos = await api.createShare(user.token, { maxViews: 3 });
    const png = await pngImage();
    await api.addFiles(user.token, photos, [
      { name: 'x.png', content: png, type: 'image/png' },
      { name: 'y.png', content: png, type: 'image/png' },
      { name: 'z.png', content: png, type: 'image/png' },
    ]);
    const context = await browser.newContext({ ...device, baseURL: server.url, locale: 'de-DE', timezoneId: 'Europe/Berlin' });
    await signInContext(context, server.url, user);
    const page = await context.newPage();
    const day = new Intl.DateTimeFormat('de-DE', { day: 'numeric', month: 'short', timeZone: 'Europe/Berlin' }).format(Date.now());
    await page.goto('/app/uploads');
    const table = page.locator('[data-test=share-table]');
    await expect(table.locator(`a[href="/app/upload/${files}"]`)).toHaveText(`2 Dateien · ${day}`);
    await expect(table).not.toContainText(files.slice(0, 11));
    await table.locator(`a[href="/app/upload/${photos}"]`).click();
    await expect(page.locator('[data-test=share-title]')).toHaveText(`3 Fotos · ${day}`);
    await context.close();
  });
}
