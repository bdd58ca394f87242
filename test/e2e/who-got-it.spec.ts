// "Who got it": a recipient's download shows on the owner's share page within a
// second or two, in the owner's language and time zone, with what they got and
// whether it finished; the share list shows a small "downloaded" state. Phone and
// desktop, light and dark, axe-clean.
import { expect, test } from './fixtures.js';
import { signInContext } from './fixtures.js';
import { screenshotsLightDark } from './page-checks.js';

const FIREFOX_ANDROID = 'Mozilla/5.0 (Android 14; Mobile; rv:121.0) Gecko/121.0 Firefox/121.0';
const sizes = {
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  desktop: { viewport: { width: 1280, height: 900 } },
} as const;
const ZONE = 'America/New_York';

for (const [size, device] of Object.entries(sizes)) {
  test(`the owner sees who got the share, in German and New York time (${size})`, async ({ browser, api, user, server }) => {
    const id = await api.createShare(user.token, { name: 'Vertrag', maxViews: 5 });
    await api.addFiles(user.token, id, [
      { name: 'vertrag.pdf', content: 'x'.repeat(4000), type: 'application/pdf' },
      { name: 'anhang.txt', content: 'abcdefghijklmnopqrstuvwxyz', type: 'text/plain' },
    ]);
    const pid = await api.publish(user.token, id);

    const owner = await browser.newContext({ ...device, baseURL: server.url, locale: 'de-DE', timezoneId: ZONE });
    await signInContext(owner, server.url, user);
    const page = await owner.newPage();
    await page.goto(`/app/upload/${id}`);
    const who = page.locator('[data-test=who-got-it]');
    await expect(who.getByRole('heading', { name: 'Wer es bekommen hat' })).toBeVisible();
    await expect(who.locator('[data-test=activity-empty]')).toHaveText('Noch niemand hat den Link geöffnet.');

    // a recipient on a phone opens the link, downloads one file whole and part of another
    const recipient = await browser.newContext({ baseURL: server.url, userAgent: FIREFOX_ANDROID });
    expect((await recipient.request.get(`/api/v2/open/share/${pid}`)).status()).toBe(200);
    const files = (await api.shareDetail(user.token, id)).files;
    const pdf = files.find((f) => f.filename === 'vertrag.pdf')!;
    const txt = files.find((f) => f.filename === 'anhang.txt')!;
    expect((await recipient.request.get(`/api/v2/open/share/${pid}/file/${pdf.id}`)).status()).toBe(200);
    const before = Date.now();
    expect((await recipient.request.get(`/api/v2/open/share/${pid}/file/${txt.id}`, { headers: { Range: 'bytes=0-9' } })).status()).toBe(206);

    const entry = who.locator('[data-test=recipient]');
    await expect(entry).toHaveCount(1, { timeout: 3000 });
    await expect(entry).toContainText('Empfänger 1');
    await expect(entry).toContainText('Firefox on Android');
    await expect(entry.locator('[data-test=activity-download]').filter({ hasText: 'vertrag.pdf heruntergeladen' })).toBeVisible();
    await expect(entry.locator('[data-test=activity-download]').filter({ hasText: 'nicht alles' })).toContainText('anhang.txt');
    await expect(entry.locator('[data-test=activity-view]')).toHaveText(/Hat den Link geöffnet/);
    // the time is the owner's: German words, New York's clock
    const local = new Intl.DateTimeFormat('de-DE', { timeStyle: 'short', timeZone: ZONE }).format(before);
    const localLater = new Intl.DateTimeFormat('de-DE', { timeStyle: 'short', timeZone: ZONE }).format(before + 60_000);
    await expect(entry.locator('time').first()).toHaveText(new RegExp(`${local}|${localLater}`));
    await expect(who.locator('[data-test=activity-summary]')).toHaveText(/1 Empfänger · 1 vollständiger Download/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(device.viewport.width);
    await screenshotsLightDark(page, `who-got-it-${size}`, { axe: true });

    await page.goto('/app/uploads');
    const row = page.locator('tr', { hasText: 'Vertrag' });
    await expect(row.locator('[data-test=downloaded]')).toHaveText(/heruntergeladen/);
    await screenshotsLightDark(page, `share-list-downloaded-${size}`, { axe: true });
    await recipient.close();
    await owner.close();
  });
}
