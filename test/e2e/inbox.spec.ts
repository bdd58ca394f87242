// The inbox: what arrived through upload links. The home page follows the same live
// list as the header's badge, so "1 new" above never sits on "Nothing new has
// arrived" below; a guest's photos open on their pictures on the owner's page; shares
// nobody named, and the names the server composed, read in the viewer's language; an
// upload an outage stopped says so and offers nothing that cannot work.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { startServer } from '../support/server.js';
import { MiB, pngImage, randomFile, throttleUpload } from './helpers.js';
import { Api, expect, signInContext, test } from './fixtures.js';
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
    await expect(table.locator(`a[href="/app/upload/${photos}"]`)).toHaveText(`3 Fotos · ${day}`);
    // the server named a guest's upload in its own language (English); a German page says it in German
    const aliasId = await api.createAlias(user.token, { name: 'Fest' });
    const guestShare = await guestUpload(server.url, aliasId, [
      { name: 'p.png', content: new Blob([new Uint8Array(png)], { type: 'image/png' }) },
      { name: 'q.png', content: new Blob([new Uint8Array(png)], { type: 'image/png' }) },
    ]);
    const told = await fetch(`${server.url}/api/v2/alias/mail/notify/${guestShare}`, {
      method: 'POST',
      headers: { 'Service-Alias': aliasId, 'Content-Type': 'application/json' },
      body: JSON.stringify({ sender: 'Anna' }),
    });
    expect(told.status).toBe(200);
    expect((await api.shareDetail(user.token, guestShare)).name).toMatch(/^From Anna · 2 photos · /);
    await page.reload();
    await expect(table.locator(`a[href="/app/upload/${guestShare}"]`)).toHaveText(`Von Anna · 2 Fotos · ${day}`);
    await table.locator(`a[href="/app/upload/${photos}"]`).click();
    await expect(page.locator('[data-test=share-title]')).toHaveText(`3 Fotos · ${day}`);
    await context.close();
  });
}

// one outage, from a guest on a phone; the owner's page is then checked at both sizes
test('an upload an outage stopped says who sent it and what arrived, and offers no download of the rest (phone and desktop)', async ({ browser }) => {
  test.setTimeout(120_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'pier-outage-'));
  const config = { webapp: { 'chunk-size': '1M', 'retry-delays': [0] } };
  let server = await startServer({ dataDir, config });
  const port = Number(new URL(server.url).port);
  try {
    const api = new Api(server);
    const owner = await api.createAccount();
    const aliasId = await api.createAlias(owner.token, { name: 'Drop box' });
    const guest = await browser.newContext({ ...sizes.phone, baseURL: server.url });
    const page = await guest.newPage();
    await page.goto(`/app/share/${aliasId}`);
    await page.locator('#guest-sender').fill('Ben');
    await throttleUpload(page, 1 * MiB);
    await page.locator('[data-test=file-input]').setInputFiles([
      { name: 'a-small.txt', mimeType: 'text/plain', buffer: Buffer.from('the small one\n') },
      { name: 'b-video.bin', mimeType: 'application/octet-stream', buffer: randomFile(12 * MiB) },
    ]);
    await page.locator('[data-test=guest-send]').click();
    const big = page.locator('[data-test=upload-progress] li[data-file="b-video.bin"]');
    await expect.poll(async () => Number(await big.getAttribute('data-sent')), { timeout: 20_000 }).toBeGreaterThan(MiB);
    // the server goes away mid-file, and the guest gives up before it is back
    await server.stop();
    await guest.close();
    server = await startServer({ dataDir, config: { ...config, bind: { address: '127.0.0.1', port } } });

    const [share] = await api.searchShares(owner.token);
    for (const [size, device] of Object.entries(sizes)) {
      const context = await browser.newContext({ ...device, baseURL: server.url });
      await signInContext(context, server.url, owner);
      const owners = await context.newPage();
      await owners.goto(`/app/upload/${share!.id}`);
      await expect(owners.locator('[data-test=share-title]')).toHaveText(/^From Ben · 2 files · /);
      await expect(owners.locator('[data-test=unfinished-upload]')).toHaveText('Ben’s upload did not finish. 1 of 2 files arrived whole.');
      const complete = owners.locator('[data-test=file-list] li[data-file="a-small.txt"]');
      const partial = owners.locator('[data-test=file-list] li[data-file="b-video.bin"]');
      await expect(complete.locator('[data-test=download]')).toBeVisible();
      await expect(partial.locator('[data-test=incomplete]')).toBeVisible();
      await expect(partial.locator('[data-test=incomplete-note]')).toContainText(/ of 12\.0 MB arrived\./);
      // nothing that cannot work: no download, preview, zoom or ZIP place for the partial file
      await expect(partial.locator('a, [data-test=toggle-preview], input[type=checkbox]')).toHaveCount(0);
      await expect(owners.locator('[data-test=zip-size]')).toContainText(/^ZIP: 14\sB/);
      await expect(owners.locator('[data-test=zip-download]')).toHaveText('Download all as ZIP');
      await screenshotsLightDark(owners, `inbox-unfinished-${size}`, { axe: true });
      await context.close();
    }
  } finally {
    await server.stop();
  }
});
