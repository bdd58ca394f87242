// The owner's journey, from a fresh browser to a link a phone opens: sign in, pick two
// files, upload. The share is published as the upload ends and the "Ready to send"
// panel shows the link (on the server's LAN address, though the owner is on
// 127.0.0.1), already in the clipboard, with what the recipient gets; the QR code opens
// full screen and closes with Escape or a tap. A phone (a second, fresh context,
// 390×844) opens the link and downloads the files, bytes as uploaded. On a phone and a
// desktop, in English and German, with axe in light and dark at each checkpoint. Upload links use the LAN address
// too; a server that listens on this computer only says so on the panel. Screenshots
// are taken for docs/screens/ (`npm run screens`).
import type { Browser, BrowserContextOptions, Page } from '@playwright/test';
import commonDe from '../../renderer/src/i18n/common.de.js';
import commonGb from '../../renderer/src/i18n/common.gb.js';
import sharesDe from '../../renderer/src/i18n/shares.de.js';
import sharesGb from '../../renderer/src/i18n/shares.gb.js';
import { ADMIN, startServer } from '../support/server.js';
import { downloadedBytes, MiB, randomFile, sha256, unzip } from './helpers.js';
import { checkBothThemes, expectAccessible } from './page-checks.js';
import { test as base, expect, type Account } from './fixtures.js';
import { combos } from './combos.js';

// Pier listens on every interface; the owner's browser uses the loopback address.
base.use({ serverConfig: { bind: { address: '0.0.0.0', port: 0 } } });
const test = base.extend({
  baseURL: async ({ server }, use) => {
    await use(server.url.replace('//0.0.0.0:', '//127.0.0.1:'));
  },
});

const messages = { gb: { shares: sharesGb, common: commonGb }, de: { shares: sharesDe, common: commonDe } } as const;
type Lang = keyof typeof messages;

const screens = {
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  desktop: { viewport: { width: 1280, height: 800 } },
} as const;
type Screen = keyof typeof screens;

const locales: Record<Lang, string> = { gb: 'en-GB', de: 'de-DE' };

/** A fresh browser context as a person would open it: size, colour scheme and language of the device. */
const freshContext = (browser: Browser, screen: Screen, theme: 'light' | 'dark', lang: Lang, extra: BrowserContextOptions = {}) =>
  browser.newContext({ ...screens[screen], colorScheme: theme, locale: locales[lang], ...extra });

/** Signs in through the login page, as the owner would. */
async function signIn(page: Page, account: Account): Promise<void> {
  await page.goto('/app');
  await page.locator('#login-name').fill(account.login);
  await page.locator('#login-password').fill(account.password);
  await page.locator('#login-password').press('Enter');
  await expect(page).not.toHaveURL(/\/login/);
}

/** The "Ready to send" panel's QR code opens full screen, large, and closes with Escape and with a tap. */
async function checkFullScreenQr(page: Page, name: string, shot = true): Promise<void> {
  const dialog = page.locator('[data-test=qr-dialog]');
  await page.locator('[data-test=qr-open]').click();
  await expect(dialog).toBeVisible();
  const img = dialog.locator('img');
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBeGreaterThan(0);
  // at least 85 % of the screen's shorter side on a phone, and over 500 px on a desktop
  const box = (await img.boundingBox())!;
  const viewport = page.viewportSize()!;
  expect(box.width).toBeGreaterThanOrEqual(Math.min(0.85 * Math.min(viewport.width, viewport.height), 500));
  if (shot) await checkBothThemes(page, `full-screen QR code (${name})`, `qr-fullscreen-${name}`, { fullPage: false });
  else await expectAccessible(page, `full-screen QR code (${name})`);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await page.locator('[data-test=qr-open]').click();
  await expect(dialog).toBeVisible();
  await img.click();
  await expect(dialog).toHaveCount(0);
}

for (const { screen, theme, lang } of combos) {
  test(`fresh browser to a link a phone opens (${screen}, ${theme}, ${lang})`, async ({ browser, api, server, baseURL }) => {
    const m = messages[lang];
    const owner = await api.createAccount();
    const notes = Buffer.from(`Meeting notes for ${owner.login}\n`.repeat(200));
    const data = randomFile(3 * MiB);
    const lan = await server.request<{ lan: boolean; urls: string[] }>('GET', '/api/v2/sec/info/addresses', undefined, { token: owner.token });
    expect(lan.body.lan).toBe(true);
    const lanBase = lan.body.urls[0]!;
    expect(new URL(lanBase).hostname).not.toMatch(/^(127\.|localhost$|\[::1\]$)/);

    const context = await freshContext(browser, screen, theme, lang, { baseURL, permissions: ['clipboard-read', 'clipboard-write'] });
    const page = await context.newPage();
    const started = Date.now();

    // 1-2: open Pier and sign in; 3: new share; 4: pick the files; 5: upload
    await signIn(page, owner);
    await page.goto('/app/share');
    await page.locator('[data-test=file-input]').setInputFiles([
      { name: 'notes.txt', mimeType: 'text/plain', buffer: notes },
      { name: 'data.bin', mimeType: 'application/octet-stream', buffer: data },
    ]);
    await expect(page.locator('[data-test=picked-files] li')).toHaveCount(2);
    await page.locator('[data-test=submit-share]').click();

    // Ready to send: the link on the LAN address, already copied
    const panel = page.locator('[data-test=ready-panel]');
    await expect(panel.getByRole('heading', { level: 2, name: m.shares.ready.title, exact: true })).toBeVisible();
    await expect(page.locator('[data-test=link-copied]')).toHaveText(m.shares.ready.copied);
    const link = await page.locator('[data-test=share-link]').inputValue();
    expect(link).toMatch(new RegExp(`^${lanBase.replace(/[.[\]]/g, '\\$&')}/app/open/[A-Za-z0-9_-]+$`));
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    const seconds = (Date.now() - started) / 1000;
    test.info().annotations.push({ type: 'journey', description: `fresh page → link copied: 5 steps, ${seconds.toFixed(1)} s` });

    // what the recipient gets: until when, how many views, no password
    const facts = page.locator('[data-test=recipient-gets] li');
    await expect(facts).toHaveCount(3);
    await expect(facts.nth(1)).toHaveText(m.shares.ready.views.split(' | ')[1]!.replace('{n}', '30'));
    await expect(facts.nth(2)).toHaveText(m.shares.ready.noPassword);
    await expect(page.locator('[data-test=local-only]')).toHaveCount(0);
    await expect(page.locator('[data-test=qr]')).toBeVisible();
    await checkBothThemes(page, `ready panel (${screen}, ${lang})`, `ready-panel-${screen}`);
    await checkFullScreenQr(page, screen);

    // the big Copy button copies it again
    await page.evaluate(() => navigator.clipboard.writeText(''));
    await panel.locator('[data-test=copy]').click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(link);

    // a phone, in a fresh context of its own, opens the link and gets the bytes
    const shareId = (await page.locator('[data-test=go-to-share]').getAttribute('href'))!.split('/').pop()!;
    const detail = await api.shareDetail(owner.token, shareId);
    expect(detail.publishInfo?.enabled).toBe(true);
    const phone = await freshContext(browser, 'phone', theme, lang, { acceptDownloads: true });
    const pp = await phone.newPage();
    await pp.goto(link);
    await expect(pp.getByText('notes.txt').first()).toBeVisible();
    const [zip] = await Promise.all([pp.waitForEvent('download'), pp.locator('a[href*="/zip"]').first().click()]);
    const entries = await unzip(await downloadedBytes(zip));
    expect([...entries.keys()].sort()).toEqual(['data.bin', 'notes.txt']);
    expect(sha256(entries.get('data.bin')!)).toBe(sha256(data));
    expect(sha256(entries.get('notes.txt')!)).toBe(sha256(notes));
    await phone.close();
    await context.close();
  });
}

test('"Share…" hands the link to the device\'s share sheet where the browser has one', async ({ userPage: page, api, user }) => {
  // desktop Chromium on Linux has no share sheet: this one records what it is given
  await page.addInitScript(() => {
    Object.defineProperty(navigator, 'share', {
      value: (data: ShareData) => {
        (window as unknown as { shared: ShareData }).shared = data;
        return Promise.resolve();
      },
    });
  });
  const id = await api.createShare(user.token, { name: 'Slides' });
  await api.publish(user.token, id);
  await page.goto(`/app/upload/${id}`);
  await page.locator('[data-test=tab-link]').click();
  const link = await page.locator('[data-test=share-link]').inputValue();
  await page.locator('[data-test=share-sheet]').click();
  await expect.poll(() => page.evaluate(() => (window as unknown as { shared?: ShareData }).shared)).toEqual({ title: 'Slides', url: link });
});

test("an upload link's link and QR code use the LAN address too", async ({ browser, api, server, baseURL }) => {
  const owner = await api.createAccount();
  const aliasId = await api.createAlias(owner.token, { name: 'Inbox' });
  const lan = await server.request<{ urls: string[] }>('GET', '/api/v2/sec/info/addresses', undefined, { token: owner.token });
  const context = await freshContext(browser, 'desktop', 'light', 'gb', { baseURL });
  const page = await context.newPage();
  await signIn(page, owner);
  await page.goto(`/app/alias/${aliasId}`);
  const link = `${lan.body.urls[0]}/app/share/${aliasId}`;
  await expect(page.locator('[data-test=alias-link]')).toHaveValue(link);
  await expect(page.locator('[data-test=local-only]')).toHaveCount(0);
  await checkFullScreenQr(page, 'upload-link', false);
  // a phone opens the guest page at that address
  const phone = await freshContext(browser, 'phone', 'light', 'gb');
  const response = await (await phone.newPage()).goto(link);
  expect(response?.status()).toBe(200);
  await phone.close();
  await context.close();
});

test('a server listening on this computer only says so on the panel, and how to change it', async ({ browser }) => {
  const local = await startServer();
  try {
    const admin = await local.login(ADMIN.login, ADMIN.password);
    const res = await local.request<{ success: boolean; id: string }>('POST', '/api/v2/sec/upload/new', { validity: 86_400_000, maxViews: 10 }, { token: admin });
    const shareId = res.body.id;
    await local.request('POST', `/api/v2/sec/share/${shareId}/publish`, { reuseId: false }, { token: admin });
    for (const screen of Object.keys(screens) as Screen[]) {
      const context = await freshContext(browser, screen, 'light', 'gb', { baseURL: local.url });
      const page = await context.newPage();
      await signIn(page, { login: ADMIN.login, password: ADMIN.password } as Account);
      await page.goto(`/app/upload/${shareId}`);
      await page.locator('[data-test=tab-link]').click();
      const notice = page.locator('[data-test=local-only]');
      await expect(notice).toContainText('Phones can’t open this link: Pier only listens on this computer.');
      await expect(notice).toContainText('bind.address = "0.0.0.0"');
      await expect(notice).toContainText('SERVICE_BIND_ADDRESS=0.0.0.0');
      // the desktop app's own setting, by its exact name
      await expect(notice).toContainText('“Reachable from the local network” in Desktop settings');
      // the link stays on the address the page was opened at: there is no other
      await expect(page.locator('[data-test=share-link]')).toHaveValue(new RegExp(`^${local.url.replace(/[.]/g, '\\.')}/app/open/`));
      await notice.scrollIntoViewIfNeeded();
      await checkBothThemes(page, `local-only notice (${screen})`, `local-only-${screen}`);
      await context.close();
    }
  } finally {
    await local.stop();
  }
});
