// The guest page of an upload link, as a guest on a touch phone or at a desk sees it: one
// line says who sees the files (never the owner's login, half of a credential), the owner's message is there, a
// touch screen gets one large picker button and no folder button or drag-and-drop
// wording, picked photos show as thumbnails (object URLs, revoked when they leave),
// every control is at least 44 px, the guest's name names the share ("From Anna · 3
// photos · 23 Nov"), "Sent. Your 3 files have arrived" with "Send more". The owner sees a
// "new from guests" badge in the navigation until the share is opened (as the desktop
// notification opens it). The upload link form: name first, the id under "Advanced",
// message, size limit, validity, until when it takes uploads, and the QR code large right
// after creation, full screen and printed alone. Axe checks each step in light and dark, where
// the screenshots for docs/screens/ are taken (`npm run screens`).
import type { Browser, Page } from '@playwright/test';
import sharp from 'sharp';
import aliasesDe from '../../renderer/src/i18n/aliases.de.js';
import aliasesGb from '../../renderer/src/i18n/aliases.gb.js';
import guestDe from '../../renderer/src/i18n/guest.de.js';
import guestGb from '../../renderer/src/i18n/guest.gb.js';
import sharesDe from '../../renderer/src/i18n/shares.de.js';
import sharesGb from '../../renderer/src/i18n/shares.gb.js';
import { expect, signInContext, test, type Account } from './fixtures.js';
import { combos } from './combos.js';
import { checkBothThemes } from './page-checks.js';
import { screenPath } from './screens.js';

const sizes = {
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  desktop: { viewport: { width: 1280, height: 800 } },
} as const;
const texts = { gb: { guest: guestGb, aliases: aliasesGb, shares: sharesGb }, de: { guest: guestDe, aliases: aliasesDe, shares: sharesDe } } as const;
type Size = keyof typeof sizes;
type Theme = 'light' | 'dark';
type Lang = keyof typeof texts;
const DAY = 86_400_000;
const MiB = 1024 * 1024;

/** A message with its `{name}` parts filled in; with `count`, the form vue-i18n picks of `one | many`. */
const fill = (message: string, values: Record<string, string | number> = {}, count?: number): string => {
  const forms = message.split(' | ');
  const form = count === undefined ? message : forms[count === 1 ? 0 : forms.length - 1]!;
  return form.replace(/\{(\w+)\}/g, (_m, k: string) => String(values[k]));
};

/** `23 Nov`: the day as the server names guest shares (English, UTC by default). */
const dayOf = (ms: number): string => new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(ms);

/** A small JPEG photo of one colour. */
const photo = (hue: number): Promise<Buffer> =>
  sharp({ create: { width: 640, height: 480, channels: 3, background: `hsl(${hue}, 70%, 50%)` } })
    .jpeg({ quality: 70 })
    .toBuffer();

async function browse(browser: Browser, baseURL: string, size: Size, theme: Theme, lang: Lang, account?: Account): Promise<Page> {
  const context = await browser.newContext({ ...sizes[size], baseURL, colorScheme: theme, locale: lang === 'de' ? 'de-DE' : 'en-GB' });
  // the theme follows the colour scheme (no stored choice), so checkpoints can switch it
  await context.addInitScript((l) => localStorage.setItem('language', l), lang);
  if (account) await signInContext(context, baseURL, account);
  return context.newPage();
}

/** A checkpoint: axe and a screenshot for the docs, in light and in dark. */
const checkpoint = (page: Page, name: string, size: Size, lang: Lang): Promise<void> => checkBothThemes(page, `${name} (${size}, ${lang})`, `${name}-${size}`);

/** Every visible control inside `scope` that is smaller than 44 × 44 px, described. */
const smallControls = (page: Page, scope: string): Promise<string[]> =>
  page.evaluate(
    (within) =>
      [...document.querySelectorAll<HTMLElement>(`${within} :is(button, input, select, textarea, a.btn, summary)`)]
        .filter((el) => el.offsetParent !== null && getComputedStyle(el).visibility !== 'hidden')
        .map((el) => ({ el, box: el.getBoundingClientRect() }))
        .filter(({ box }) => box.height < 44 || box.width < 44)
        .map(({ el, box }) => `${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim() || el.getAttribute('aria-label') || el.id}" ${Math.round(box.width)}×${Math.round(box.height)}`),
    scope,
  );

/** Whether a blob URL still resolves. */
const alive = (page: Page, url: string): Promise<boolean> =>
  page.evaluate((u) => fetch(u).then(() => true, () => false), url);

for (const [i, { screen: size, theme, lang }] of combos.entries()) {
  test(`guest page, ${size}, ${theme}, ${lang}: whose link, thumbnails, the sender's name, "Sent", and the owner's badge`, async ({ browser, api, server }) => {
    const { guest: g, shares: s, aliases: a } = texts[lang];
    // a login as people have them, for the pictures in the docs
    const login = ['maria', 'jonas', 'lena', 'paul'][i]!;
    const user = await api.createAccount({ login, password: `${login}-password` });
    const member = await api.createAccount();
    const shared = size === 'desktop';
    const message = 'Hi! Photos from Saturday, please.\nOnly the good ones 😄';
    const aliasId = await api.createAlias(user.token, { name: 'Garden party', message, members: shared ? [member.auth.id] : [] });
    const page = await browse(browser, server.url, size, theme, lang);
    await page.goto(`/app/share/${aliasId}`);

    // whose link it is and who sees the files, in one line; the owner's message
    await expect(page.locator('[data-test=guest-title]')).toHaveText(fill(g.heading, { name: 'Garden party' }));
    const whose = page.locator('[data-test=guest-whose]');
    await expect(whose).toHaveText(shared ? fill(g.whoseShared, { n: 1 }, 1) : fill(g.whose));
    await expect(page.locator('[data-test=guest-owner-message] blockquote')).toHaveText(message);
    // the owner's login is nowhere on the page
    expect(await page.locator('body').innerText()).not.toContain(user.login);

    // a touch screen: one large picker button, no folder button, no drag-and-drop wording
    if (size === 'phone') {
      await expect(page.locator('[data-test=pick-files]')).toHaveAccessibleName(g.pick);
      await expect(page.locator('[data-test=pick-folder]')).toHaveCount(0);
      await expect(page.locator('[data-test=folder-input]')).toHaveCount(0);
      await expect(page.getByText(s.drop.text)).toHaveCount(0);
    } else {
      await expect(page.getByText(s.drop.text)).toBeVisible();
      await expect(page.locator('[data-test=pick-folder]')).toBeVisible();
    }
    // one primary button at a time: the picker, until files are chosen
    await expect(page.locator('.guest .btn-primary')).toHaveCount(1);
    await expect(page.locator('[data-test=guest-send]')).toHaveCount(0);
    expect(page.viewportSize()!.width).toBeGreaterThanOrEqual(await page.evaluate(() => document.documentElement.scrollWidth));

    // three photos: thumbnails drawn from object URLs
    const photos = await Promise.all([10, 130, 250].map(async (hue, n) => ({ name: `IMG_000${n + 1}.jpg`, mimeType: 'image/jpeg', buffer: await photo(hue) })));
    await page.locator('[data-test=file-input]').setInputFiles(photos);
    const thumbs = page.locator('[data-test=thumb-image]');
    await expect(thumbs).toHaveCount(3);
    for (const img of await thumbs.all()) {
      expect(await img.getAttribute('src')).toMatch(/^blob:/);
      await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(640);
    }
    // removing one revokes its URL; choosing it again draws it anew
    const firstUrl = (await thumbs.first().getAttribute('src'))!;
    await page.getByRole('button', { name: fill(s.picked.remove, { name: 'IMG_0001.jpg' }) }).click();
    await expect(thumbs).toHaveCount(2);
    expect(await alive(page, firstUrl)).toBe(false);
    await page.locator('[data-test=file-input]').setInputFiles([photos[0]!]);
    await expect(thumbs).toHaveCount(3);

    // now the send button is the one primary button; the picker only adds
    await expect(page.locator('[data-test=guest-send]')).toHaveText(fill(g.sendCount, { n: 3 }, 3));
    await expect(page.locator('.guest .btn-primary')).toHaveCount(1);
    if (size === 'phone') await expect(page.locator('[data-test=pick-files]')).toHaveAccessibleName(g.addMore);

    await page.getByLabel(g.yourName).fill('Anna');
    await page.getByLabel(new RegExp(`^${g.message}`)).fill('Here you go!');
    // a finger hits every control: on a phone in the whole page, at a desk in the form
    const scope = size === 'phone' ? 'body' : '.guest';
    expect(await smallControls(page, scope)).toEqual([]);
    await checkpoint(page, 'guest-page', size, lang);

    const urls = await thumbs.evaluateAll((els) => els.map((e) => (e as HTMLImageElement).src));
    const send = page.locator('[data-test=guest-send]');
    if (size === 'phone') await send.tap();
    else await send.click();
    const done = page.locator('[data-test=guest-done]');
    await expect(done).toHaveText(fill(g.sent, { n: 3 }, 3), { timeout: 30_000 });
    for (const u of urls) expect(await alive(page, u)).toBe(false);
    expect(await smallControls(page, scope)).toEqual([]);
    await checkpoint(page, 'guest-sent', size, lang);

    // "Send more": an empty form that remembers the name
    await page.locator('[data-test=guest-more]').click();
    await expect(page.locator('[data-test=thumb]')).toHaveCount(0);
    await expect(page.locator('[data-test=guest-send]')).toHaveCount(0);
    await expect(page.getByLabel(g.yourName)).toHaveValue('Anna');
    await page.context().close();

    // the owner: the share is named after the sender and what was sent
    const [share] = await api.searchShares(user.token);
    const detail = await api.shareDetail(user.token, share!.id);
    expect(detail.files).toHaveLength(3);
    const created = (await server.request<{ created: number }>('GET', `/api/v2/sec/share/${share!.id}`, undefined, { token: user.token })).body.created;
    const name = `From Anna · 3 photos · ${dayOf(created)}`;
    expect(share!.name).toBe(name);

    // the page composes the server's name again in its own language
    const shown = lang === 'de' ? /Von Anna · 3 Fotos · \d+\. \S+/ : name;
    const ownerPage = await browse(browser, server.url, size, theme, lang, user);
    await ownerPage.goto('/app/uploads');
    await expect(ownerPage.locator('[data-test=share-table]')).toContainText(shown);
    // the "new from guests" badge, in the navigation (behind the menu button on a phone)
    const navBadge = ownerPage.locator('[data-test=nav-new-guest-uploads]');
    if (size === 'phone') {
      await expect(ownerPage.locator('[data-test=menu-new-guest-uploads]')).toContainText('1');
      await ownerPage.locator('button[aria-controls=main-nav]').click();
    }
    await expect(navBadge).toContainText(fill(a.newShort, { n: 1 }, 1));
    await checkpoint(ownerPage, 'guest-upload-badge', size, lang);
    await ownerPage.reload();
    if (size === 'phone') await ownerPage.locator('button[aria-controls=main-nav]').click();
    await expect(navBadge).toBeVisible();
    // opened where the desktop notification opens it: the badge is gone, also after a reload
    await ownerPage.goto(`/app/upload/${encodeURIComponent(share!.id)}`);
    await expect(ownerPage.locator('[data-test=share-title]')).toHaveText(shown);
    await expect(ownerPage.locator('[data-test=menu-new-guest-uploads], [data-test=nav-new-guest-uploads]')).toHaveCount(0);
    await ownerPage.goto('/app/home');
    await expect(ownerPage.locator('[data-test=no-new-guest-uploads]')).toBeVisible();
    await expect(ownerPage.locator('[data-test=menu-new-guest-uploads], [data-test=nav-new-guest-uploads]')).toHaveCount(0);
    await ownerPage.context().close();
  });
}

const formCombos: { size: Size; theme: Theme; lang: Lang }[] = [
  { size: 'desktop', theme: 'light', lang: 'gb' },
  { size: 'phone', theme: 'dark', lang: 'gb' },
];

for (const { size, theme, lang } of formCombos) {
  test(`upload link form, ${size}, ${theme}: name first, id under Advanced, message, size limit, expiry, a large QR code, full screen and print`, async ({ browser, user, server }) => {
    const { aliases: a, guest: g } = texts[lang];
    const page = await browse(browser, server.url, size, theme, lang, user);
    await page.goto('/app/alias/new');
    const form = page.locator('[data-test=alias-form]');
    await expect(form.locator('label').first()).toHaveText(a.field.name);
    await expect(page.locator('#alias-id')).toBeHidden();
    await page.getByLabel(a.field.name, { exact: true }).fill('Garden party');
    await page.getByLabel(new RegExp(`^${a.field.message}`)).fill('Photos from Saturday, please.');
    await page.getByLabel(a.field.maxSize).selectOption(String(10 * MiB));
    await page.getByLabel(a.field.validity).selectOption({ index: 0 });
    await page.getByLabel(a.field.expires).selectOption(String(7 * DAY));
    await page.locator('[data-test=alias-advanced] summary').click();
    await expect(page.locator('#alias-id')).toBeVisible();
    const id = `garden-${Date.now().toString(36)}`;
    await page.locator('#alias-id').fill(id);
    await checkpoint(page, 'alias-form', size, lang);
    const before = Date.now();
    await page.getByRole('button', { name: a.create }).click();

    // right after creation: the link first, its QR code large
    await expect(page).toHaveURL(new RegExp(`/app/alias/${id}$`));
    const panel = page.locator('[data-test=alias-link-panel]');
    await expect(panel).toContainText(a.link.freshText);
    const qr = panel.locator('[data-test=qr]');
    await expect(qr).toBeVisible();
    expect((await qr.boundingBox())!.width).toBeGreaterThanOrEqual(size === 'phone' ? 250 : 300);
    expect((await panel.boundingBox())!.y).toBeLessThan((await form.boundingBox())!.y);
    await checkpoint(page, 'alias-created', size, lang);

    const saved = await server.request<{ name: string; message: string; maxSize: number; expires: number }>('GET', `/api/v2/sec/alias/${id}`, undefined, { token: user.token });
    expect(saved.body).toMatchObject({ name: 'Garden party', message: 'Photos from Saturday, please.', maxSize: 10 * MiB });
    expect(saved.body.expires).toBeGreaterThanOrEqual(before + 7 * DAY);
    expect(saved.body.expires).toBeLessThan(Date.now() + 7 * DAY);

    // full screen
    await panel.locator('[data-test=qr-fullscreen]').click();
    const dialog = page.locator('[data-test=qr-dialog]');
    await expect(dialog.locator('img')).toBeVisible();
    const viewport = page.viewportSize()!;
    expect((await dialog.locator('img').boundingBox())!.width).toBeGreaterThan(Math.min(viewport.width, viewport.height) * 0.7);
    await page.locator('[data-test=qr-close]').click();
    await expect(dialog).toHaveCount(0);

    // print: just the name, the QR code and the link
    await page.evaluate(() => {
      const w = window as unknown as { printed: number; print: () => void };
      w.printed = 0;
      w.print = () => void w.printed++;
    });
    await panel.locator('[data-test=qr-print]').click();
    await expect.poll(() => page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
    await page.emulateMedia({ media: 'print' });
    const sheet = page.locator('[data-test=qr-print-sheet]');
    await expect(sheet).toBeVisible();
    await expect(sheet.locator('h1')).toHaveText('Garden party');
    await expect(sheet.locator('p')).toHaveText(`${server.url}/app/share/${id}`);
    await expect.poll(() => sheet.locator('img').evaluate((el: HTMLImageElement) => el.naturalWidth)).toBeGreaterThan(500);
    await expect(page.locator('.app-header')).toBeHidden();
    await expect(panel).toBeHidden();
    if (size === 'desktop' && lang === 'gb') {
      await page.screenshot({ path: screenPath(`alias-print-${size}-${theme}`) });
    }
    // once printed, printing shows the page again
    await page.evaluate(() => window.dispatchEvent(new Event('afterprint')));
    await expect(page.locator('.app-header')).toBeVisible();
    await page.emulateMedia({ media: 'screen' });

    // later visits show the QR code at its usual size, below the form
    await page.reload();
    await expect(panel.locator('[data-test=qr]')).toBeVisible();
    expect((await panel.locator('[data-test=qr]').boundingBox())!.width).toBeLessThanOrEqual(200);
    await expect(page.getByLabel(a.field.expires)).toHaveValue('keep');

    // the guest page shows the message and the size limit
    const guest = await browse(browser, server.url, size, theme, lang);
    await guest.goto(`/app/share/${id}`);
    await expect(guest.locator('[data-test=guest-owner-message]')).toContainText('Photos from Saturday, please.');
    await expect(guest.locator('[data-test=guest-whose]')).toHaveText(fill(g.whose));
    await guest.locator('[data-test=file-input]').setInputFiles([{ name: 'a.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') }]);
    await expect(guest.getByText(/10(\.0|,0)? MB/)).toBeVisible();
    await guest.context().close();
    await page.context().close();
  });
}
