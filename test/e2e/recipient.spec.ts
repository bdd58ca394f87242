// The recipient's journey, from a fresh browser that got a link to the bytes on disk:
// the header with "Download all" (the ZIP unpacked and compared with what was
// uploaded), the photo grid and its lightbox (arrows, swipe, Escape, download), the
// file list with its per-file menu (SHA-256, copy, preview), the password form, and a
// page of its own for each reason a link does not open. At phone and desktop size, in
// English and German, with axe clean in light and dark at each checkpoint, where the
// screenshots for docs/screens/ are taken (`npm run screens`). Also: a view is one recipient
// (reloads, return visits and the signed-in owner count nothing); a video plays in the
// lightbox; without a ZIP (too large, or turned off) the page says why and each file
// downloads on its own.
import type { Browser, BrowserContext, Page } from '@playwright/test';
import sharp from 'sharp';
import openDe from '../../renderer/src/i18n/open.de.js';
import openGb from '../../renderer/src/i18n/open.gb.js';
import commonDe from '../../renderer/src/i18n/common.de.js';
import commonGb from '../../renderer/src/i18n/common.gb.js';
import { downloadedBytes, sha256, unzip } from './helpers.js';
import { checkBothThemes, expectAccessible } from './page-checks.js';
import { startServer, type TestServer } from '../support/server.js';
import { Api, expect, signInContext, test, type Account } from './fixtures.js';
import { combos } from './combos.js';

const sizes = {
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  desktop: { viewport: { width: 1280, height: 800 } },
} as const;
const texts = { gb: { open: openGb, common: commonGb }, de: { open: openDe, common: commonDe } } as const;
type Size = keyof typeof sizes;
type Theme = 'light' | 'dark';
type Lang = keyof typeof texts;

/** A message with its `{name}` parts filled in; `choice` picks a plural form (`a | b | c`). */
const fill = (message: string, values: Record<string, string | number> = {}, choice?: number): string => {
  const forms = message.split(' | ');
  const form = choice === undefined ? message : forms[Math.min(choice, forms.length - 1)]!;
  return form.replace(/\{(\w+)\}/g, (_m, k: string) => String(values[k]));
};

/** A picture that looks like one: a sky gradient, a sun and a horizon, in JPEG. */
const photo = (hue: number, width = 1200, height = 800): Promise<Buffer> =>
  sharp(
    Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
      <defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1">
        <stop offset="0" stop-color="hsl(${hue},70%,45%)"/><stop offset="1" stop-color="hsl(${(hue + 40) % 360},80%,80%)"/>
      </linearGradient></defs>
      <rect width="100%" height="100%" fill="url(#g)"/>
      <circle cx="${width * 0.7}" cy="${height * 0.35}" r="${height * 0.12}" fill="hsl(${(hue + 180) % 360},90%,70%)"/>
      <rect y="${height * 0.72}" width="100%" height="${height * 0.28}" fill="hsl(${(hue + 90) % 360},35%,30%)"/>
    </svg>`),
  )
    .jpeg({ quality: 80 })
    .toBuffer();

/** A small valid PDF with one empty page. */
const pdf = (): Buffer => {
  const objects = ['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>'];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj ${o} endobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer << /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body);
};

interface Upload {
  name: string;
  bytes: Buffer;
  type: string;
}

/** A published share with these files; waits for the checksums, returns the share id and publish id. */
async function shareOf(api: Api, owner: Account, files: Upload[], props: Record<string, unknown>): Promise<{ id: string; pid: string }> {
  const id = await api.createShare(owner.token, { maxViews: 50, ...props });
  await api.addFiles(
    owner.token,
    id,
    files.map((f) => ({ name: f.name, content: f.bytes, type: f.type })),
  );
  await expect.poll(async () => (await api.shareDetail(owner.token, id)).files.every((f) => f.checksum), { timeout: 15_000 }).toBe(true);
  return { id, pid: await api.publish(owner.token, id) };
}

/** A fresh browser of the given size, theme and language, as a recipient who just got the link. */
async function recipient(browser: Browser, baseURL: string, size: Size, theme: Theme, lang: Lang): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    ...sizes[size],
    baseURL,
    colorScheme: theme,
    locale: lang === 'de' ? 'de-DE' : 'en-GB',
    acceptDownloads: true,
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  // the theme follows the colour scheme (no stored choice), so checkpoints can switch it
  await context.addInitScript((l) => localStorage.setItem('language', l), lang);
  return { context, page: await context.newPage() };
}

/** Swipes across the middle of the screen with a real touch sequence (right to left by default). */
async function swipe(page: Page, direction: 'left' | 'right'): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const { width, height } = page.viewportSize()!;
  const [from, to] = direction === 'left' ? [width * 0.8, width * 0.2] : [width * 0.2, width * 0.8];
  const y = height / 2;
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: from, y }] });
  for (const f of [0.25, 0.5, 0.75, 1]) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: from + (to - from) * f, y: y + 4 * f }] });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

for (const { screen: size, theme, lang } of combos) {
  test.describe(`recipient, ${size}, ${theme}, ${lang}`, () => {
    const { open: t, common } = texts[lang];

    test('photos: the header, Download all, the grid and the lightbox', async ({ browser, api, user, server }) => {
      const photos: Upload[] = [];
      for (const [i, hue] of [200, 20, 120, 280].entries()) photos.push({ name: `photo-${i + 1}.jpg`, bytes: await photo(hue), type: 'image/jpeg' });
      const paper: Upload = { name: 'route.pdf', bytes: pdf(), type: 'application/pdf' };
      const { pid } = await shareOf(api, user, [...photos, paper], { name: 'Summer in Lisbon', description: 'Pictures from **our trip**.' });

      const { context, page } = await recipient(browser, server.url, size, theme, lang);
      await page.goto(`/app/open/${pid}`);
      await expect(page.locator('[data-test=open-title]')).toHaveText('Summer in Lisbon');
      await expect(page.locator('[data-test=open-summary]')).toHaveText(new RegExp(`^${fill(t.summary, { n: 5, size: 'X' }, 5).split('X')[0]}`));
      await expect(page.locator('[data-test=open-until]')).toContainText(fill(t.availableUntil, { date: '' }).trim());
      await expect(page.locator('[data-test=description] strong')).toHaveText('our trip');
      await expect(page.locator('[data-test=photo-grid] [data-test=photo-tile]')).toHaveCount(4);
      for (const tile of await page.locator('[data-test=photo-grid] img').all()) {
        await tile.scrollIntoViewIfNeeded();
        await expect.poll(() => tile.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1200);
      }
      await expect(page.getByRole('heading', { name: t.otherFiles })).toBeVisible();
      await expect(page.locator('[data-test=file-list] li')).toHaveCount(1);
      await expect(page.locator('[data-test=file-list] li').first()).toHaveAttribute('data-file', 'route.pdf');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(sizes[size].viewport.width);
      await checkBothThemes(page, `recipient photos (${size}, ${lang})`, `recipient-photos-${size}`);

      // Download all: the ZIP holds every file with the bytes that were uploaded.
      const zipLink = page.locator('[data-test=zip-download]');
      await expect(zipLink).toContainText(t.downloadAll);
      const [zip] = await Promise.all([page.waitForEvent('download'), zipLink.click()]);
      const entries = await unzip(await downloadedBytes(zip));
      expect([...entries.keys()].sort()).toEqual([...photos, paper].map((f) => f.name).sort());
      for (const f of [...photos, paper]) expect(sha256(entries.get(f.name)!), f.name).toBe(sha256(f.bytes));

      // The lightbox: from the second tile, arrows both ways and around, swipes on a touch screen.
      const box = page.locator('[data-test=lightbox]');
      const tile = page.locator('[data-test=photo-tile]').nth(1);
      await tile.click();
      await expect(box).toBeVisible();
      await expect(box).toHaveAttribute('data-file', 'photo-2.jpg');
      await expect(box.locator('[data-test=lightbox-position]')).toHaveText('2 / 4');
      await expect.poll(() => box.locator('[data-test=lightbox-image]').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1200);
      await checkBothThemes(page, `lightbox (${size}, ${lang})`, `recipient-lightbox-${size}`, { fullPage: false });
      await page.keyboard.press('ArrowRight');
      await expect(box).toHaveAttribute('data-file', 'photo-3.jpg');
      await page.keyboard.press('ArrowLeft');
      await page.keyboard.press('ArrowLeft');
      await expect(box).toHaveAttribute('data-file', 'photo-1.jpg');
      await page.keyboard.press('ArrowLeft');
      await expect(box).toHaveAttribute('data-file', 'photo-4.jpg');
      await box.locator('[data-test=lightbox-next]').click();
      await expect(box).toHaveAttribute('data-file', 'photo-1.jpg');
      if (sizes[size].viewport.width < 500) {
        await swipe(page, 'left');
        await expect(box).toHaveAttribute('data-file', 'photo-2.jpg');
        await swipe(page, 'right');
        await swipe(page, 'right');
        await expect(box).toHaveAttribute('data-file', 'photo-4.jpg');
      } else {
        await box.locator('[data-test=lightbox-previous]').click();
        await expect(box).toHaveAttribute('data-file', 'photo-4.jpg');
      }
      // the picture shown, saved from the lightbox
      const [one] = await Promise.all([page.waitForEvent('download'), box.locator('[data-test=lightbox-download]').click()]);
      expect(one.suggestedFilename()).toBe('photo-4.jpg');
      expect(sha256(await downloadedBytes(one))).toBe(sha256(photos[3]!.bytes));
      await expect(box.locator('[data-test=lightbox-close]')).toHaveAccessibleName(common.close);
      await page.keyboard.press('Escape');
      await expect(box).toHaveCount(0);
      // the focus is back on the grid, at the tile of the picture last shown
      await expect(page.locator('[data-test=photo-tile]').nth(3)).toBeFocused();
      await context.close();
    });

    test('files: the password form, Download all, the per-file menu with SHA-256 and preview', async ({ browser, api, user, server }) => {
      const files: Upload[] = [
        { name: 'agenda.txt', bytes: Buffer.from('1. Welcome\n2. Budget\n3. Next steps\n'), type: 'text/plain' },
        { name: 'minutes.txt', bytes: Buffer.from('Minutes of the meeting.\n'.repeat(40)), type: 'text/plain' },
      ];
      const { pid } = await shareOf(api, user, files, { name: 'Board meeting', password: 'open sesame' });

      const { context, page } = await recipient(browser, server.url, size, theme, lang);
      await page.goto(`/app/open/${pid}`);
      await expect(page.getByRole('heading', { level: 1, name: t.passwordTitle })).toBeVisible();
      const field = page.getByLabel(t.password, { exact: true });
      await expect(field).toBeFocused();
      await checkBothThemes(page, `password form (${size}, ${lang})`, `recipient-password-${size}`);
      await field.fill('wrong');
      await page.getByRole('button', { name: t.unlock }).click();
      await expect(page.locator('[data-test=wrong-password]')).toHaveText(t.wrongPassword);
      await field.fill('open sesame');
      await page.getByRole('button', { name: t.unlock }).click();
      await expect(page.locator('[data-test=open-title]')).toHaveText('Board meeting');
      await expect(page.locator('[data-test=open-summary]')).toHaveText(new RegExp(`^${fill(t.summary, { n: 2, size: 'X' }, 2).split('X')[0]}`));
      await expect(page.locator('[data-test=photo-grid]')).toHaveCount(0);
      await expect(page.getByRole('heading', { name: t.files, exact: true })).toBeVisible();

      const [zip] = await Promise.all([page.waitForEvent('download'), page.locator('[data-test=zip-download]').click()]);
      const entries = await unzip(await downloadedBytes(zip));
      expect([...entries.keys()].sort()).toEqual(['agenda.txt', 'minutes.txt']);
      for (const f of files) expect(sha256(entries.get(f.name)!)).toBe(sha256(f.bytes));

      // One primary action per file; the rest in its menu.
      const item = page.locator('li[data-file="minutes.txt"]');
      await expect(item.getByRole('link')).toHaveCount(1);
      const [dl] = await Promise.all([page.waitForEvent('download'), item.locator('[data-test=download]').click()]);
      expect(sha256(await downloadedBytes(dl))).toBe(sha256(files[1]!.bytes));
      const more = item.locator('[data-test=file-menu]');
      await expect(more).toHaveAccessibleName(fill(t.more, { name: 'minutes.txt' }));
      await expect(item.locator('[data-test=file-menu-panel]')).toHaveCount(0);
      await more.click();
      await expect(more).toHaveAttribute('aria-expanded', 'true');
      const menu = item.locator('[data-test=file-menu-panel]');
      await expect(menu.locator('[data-test=checksum]')).toHaveText(sha256(files[1]!.bytes));
      await checkBothThemes(page, `file menu (${size}, ${lang})`, `recipient-files-${size}`);
      await menu.locator('[data-test=copy]').click();
      await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(sha256(files[1]!.bytes));
      // Escape closes the menu and gives the focus back to its button
      await menu.locator('[data-test=copy]').focus();
      await page.keyboard.press('Escape');
      await expect(menu).toHaveCount(0);
      await expect(more).toBeFocused();
      // the preview, from the menu
      await more.click();
      await menu.locator('[data-test=toggle-preview]').click();
      await expect(menu).toHaveCount(0);
      await expect(item.locator('[data-test=preview] iframe')).toBeVisible();
      // a click elsewhere closes an open menu
      await page.locator('li[data-file="agenda.txt"] [data-test=file-menu]').click();
      await expect(page.locator('li[data-file="agenda.txt"] [data-test=file-menu-panel]')).toBeVisible();
      await page.locator('[data-test=open-title]').click();
      await expect(page.locator('[data-test=file-menu-panel]')).toHaveCount(0);
      // the browser holds the share's cookie: a reload shows the files without the password
      await page.reload();
      await expect(page.locator('[data-test=open-title]')).toHaveText('Board meeting');
      await context.close();
    });

    test('links that do not open: expired, used up, unpublished, unknown, each with its own message', async ({ browser, api, user, server }) => {
      const file: Upload[] = [{ name: 'a.txt', bytes: Buffer.from('a'), type: 'text/plain' }];
      const expired = await shareOf(api, user, file, { name: 'Expired', validity: 1500 });
      const usedUp = await shareOf(api, user, file, { name: 'Used up', maxViews: 1 });
      expect((await server.request('GET', `/api/v2/open/share/${usedUp.pid}`)).status).toBe(200);
      const unpublished = await shareOf(api, user, file, { name: 'Unpublished' });
      expect((await server.request('DELETE', `/api/v2/sec/share/${unpublished.id}/publish`, undefined, { token: user.token })).status).toBe(200);
      await expect.poll(async () => (await server.request('GET', `/api/v2/open/share/${expired.pid}`)).status, { timeout: 5000 }).toBe(404);

      const { context, page } = await recipient(browser, server.url, size, theme, lang);
      const cases = [
        { pid: expired.pid, reason: 'expired', text: t.unavailable.expired },
        { pid: usedUp.pid, reason: 'usedUp', text: t.unavailable.usedUp },
        { pid: unpublished.pid, reason: 'unpublished', text: t.unavailable.unpublished },
        { pid: 'no-such-link-0123456789', reason: 'unknown', text: t.unavailable.unknown },
      ] as const;
      for (const c of cases) {
        await page.goto(`/app/open/${c.pid}`);
        const box = page.locator('[data-test=unavailable]');
        await expect(box).toHaveAttribute('data-reason', c.reason);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(c.text.title);
        await expect(box).toContainText(c.text.text);
        await expect(box.locator('[data-test=next-step]')).toHaveText(c.text.next);
        await expect(page.getByText(/Summer|Expired|Used up|Unpublished|a\.txt/)).toHaveCount(0);
        if (c.reason === 'expired') await checkBothThemes(page, `expired (${size}, ${lang})`, `recipient-expired-${size}`);
        else await expectAccessible(page, `${c.reason} (${size}, ${theme}, ${lang})`);
      }
      // four reasons, four different messages
      expect(new Set(cases.map((c) => c.text.title)).size).toBe(4);
      await context.close();
    });
  });
}

test.describe('fair views', () => {
  test('a view is one recipient: reloads and return visits count nothing, the signed-in owner never counts', async ({ browser, api, user, server }) => {
    const { id, pid } = await shareOf(api, user, [{ name: 'a.txt', bytes: Buffer.from('hello'), type: 'text/plain' }], { name: 'Counted', maxViews: 5 });
    const views = async () => (await api.shareDetail(user.token, id)).publishInfo!.views;
    const link = `${server.url}/app/open/${pid}`;

    const first = await browser.newContext({ acceptDownloads: true });
    const page = await first.newPage();
    await page.goto(link);
    await expect(page.locator('[data-test=open-title]')).toHaveText('Counted');
    expect(await views()).toBe(1);
    // a download and a preview from the same browser
    await Promise.all([page.waitForEvent('download'), page.locator('[data-test=download-single]').click()]);
    await page.locator('[data-test=file-menu]').click();
    await page.locator('[data-test=toggle-preview]').click();
    await expect(page.locator('[data-test=preview] iframe')).toBeVisible();
    await page.reload();
    await expect(page.locator('[data-test=open-title]')).toHaveText('Counted');
    // coming back later, in a new tab of the same browser
    await page.close();
    const later = await first.newPage();
    await later.goto(link);
    await expect(later.locator('[data-test=open-title]')).toHaveText('Counted');
    expect(await views()).toBe(1);

    // the owner, signed in, opens the public link
    const ownerContext = await browser.newContext();
    await signInContext(ownerContext, server.url, user);
    const ownerPage = await ownerContext.newPage();
    await ownerPage.goto(link);
    await expect(ownerPage.locator('[data-test=open-title]')).toHaveText('Counted');
    await ownerPage.reload();
    await expect(ownerPage.locator('[data-test=open-title]')).toHaveText('Counted');
    expect(await views()).toBe(1);

    // a second recipient
    const second = await browser.newContext();
    const other = await second.newPage();
    await other.goto(link);
    await expect(other.locator('[data-test=open-title]')).toHaveText('Counted');
    expect(await views()).toBe(2);
    for (const c of [first, ownerContext, second]) await c.close();
  });
});

test('a video: a tile with a play mark, and it plays in the lightbox', async ({ browser, page, api, user, server }) => {
  // a short WebM, recorded by the browser itself from a canvas
  await page.goto(`${server.url}/app/login`);
  const clip = Buffer.from(
    await page.evaluate(async () => {
      const canvas = document.createElement('canvas');
      canvas.width = 320;
      canvas.height = 240;
      const ctx = canvas.getContext('2d')!;
      const recorder = new MediaRecorder(canvas.captureStream(25), { mimeType: 'video/webm' });
      const chunks: Blob[] = [];
      recorder.ondataavailable = (e) => chunks.push(e.data);
      const stopped = new Promise((resolve) => (recorder.onstop = resolve));
      recorder.start();
      for (let frame = 0; frame < 40; frame++) {
        ctx.fillStyle = `hsl(${frame * 9}, 70%, 50%)`;
        ctx.fillRect(0, 0, 320, 240);
        await new Promise((resolve) => setTimeout(resolve, 40));
      }
      recorder.stop();
      await stopped;
      return [...new Uint8Array(await new Blob(chunks).arrayBuffer())];
    }),
  );
  const { pid } = await shareOf(
    api,
    user,
    [
      { name: 'a-photo.jpg', bytes: await photo(30, 600, 400), type: 'image/jpeg' },
      { name: 'b-clip.webm', bytes: clip, type: 'video/webm' },
    ],
    { name: 'Clip' },
  );

  const { context, page: rp } = await recipient(browser, server.url, 'desktop', 'light', 'gb');
  await rp.goto(`/app/open/${pid}`);
  const tile = rp.locator('li[data-file="b-clip.webm"] [data-test=photo-tile]');
  await expect(tile.locator('.play')).toBeVisible();
  await tile.click();
  const video = rp.locator('[data-test=lightbox] [data-test=lightbox-video]');
  await expect(video).toBeVisible();
  await expect(video).toHaveAttribute('controls', '');
  await video.evaluate((v: HTMLVideoElement) => {
    v.muted = true;
    return v.play();
  });
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 10_000 }).toBeGreaterThan(0);
  // arrows pass the video by only when it does not have the focus
  await rp.locator('[data-test=lightbox-close]').focus();
  await rp.keyboard.press('ArrowRight');
  await expect(rp.locator('[data-test=lightbox]')).toHaveAttribute('data-file', 'a-photo.jpg');
  await context.close();
});

/** A server of its own with this ZIP limit, and an owner on it. */
async function zipServer(zipMaxSize: string): Promise<{ server: TestServer; api: Api; owner: Account }> {
  const server = await startServer({ config: { backend: { share: { 'zip-max-size': zipMaxSize } } } });
  const api = new Api(server);
  return { server, api, owner: await api.createAccount() };
}

test('too large for one ZIP: the page says why, and each file downloads on its own', async ({ browser }) => {
  const { server, api, owner } = await zipServer('2K');
  try {
    const files: Upload[] = [
      { name: 'one.bin', bytes: Buffer.alloc(1500, 1), type: 'application/octet-stream' },
      { name: 'two.bin', bytes: Buffer.alloc(1500, 2), type: 'application/octet-stream' },
    ];
    const { pid } = await shareOf(api, owner, files, { name: 'Big ones' });
    const { context, page } = await recipient(browser, server.url, 'phone', 'light', 'gb');
    await page.goto(`/app/open/${pid}`);
    await expect(page.locator('[data-test=open-title]')).toHaveText('Big ones');
    await expect(page.locator('[data-test=zip-download]')).toHaveCount(0);
    // the message names the server's limit, 2 KB
    const [before, after] = openGb.zipTooLarge.split('{max}').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    await expect(page.locator('[data-test=zip-unavailable]')).toHaveText(new RegExp(`^${before}2[.,]0 KB${after}$`));
    for (const f of files) {
      const [dl] = await Promise.all([page.waitForEvent('download'), page.locator(`li[data-file="${f.name}"] [data-test=download]`).click()]);
      expect(sha256(await downloadedBytes(dl))).toBe(sha256(f.bytes));
    }
    await expectAccessible(page, 'no ZIP: too large');
    await context.close();
  } finally {
    await server.stop();
  }
});

test('ZIP downloads turned off: the page says so, and each file downloads on its own', async ({ browser }) => {
  const { server, api, owner } = await zipServer('0');
  try {
    const files: Upload[] = [
      { name: 'one.txt', bytes: Buffer.from('one'), type: 'text/plain' },
      { name: 'two.txt', bytes: Buffer.from('two'), type: 'text/plain' },
    ];
    const { pid } = await shareOf(api, owner, files, { name: 'No zip' });
    const { context, page } = await recipient(browser, server.url, 'desktop', 'dark', 'de');
    await page.goto(`/app/open/${pid}`);
    await expect(page.locator('[data-test=open-title]')).toHaveText('No zip');
    await expect(page.locator('[data-test=zip-download]')).toHaveCount(0);
    await expect(page.locator('[data-test=zip-unavailable]')).toHaveText(openDe.zipOff);
    const [dl] = await Promise.all([page.waitForEvent('download'), page.locator('li[data-file="two.txt"] [data-test=download]').click()]);
    expect((await downloadedBytes(dl)).toString()).toBe('two');
    await context.close();
  } finally {
    await server.stop();
  }
});
