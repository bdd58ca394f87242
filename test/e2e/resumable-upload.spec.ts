// Uploads that survive real life, on the guest page of an upload link. On a touch phone a
// guest sends three photos and a 100 MB file: a file too large for the link is refused
// before anything is sent and the rest goes; the page is reloaded half-way and, with the
// same files chosen again, the upload continues where the server stopped (bytes compared,
// no second upload from zero); meanwhile recipients see the half-sent file marked and
// without a Download button; the server is stopped for 20 s and the page counts down its
// retries, then finishes by itself once the server is back. With retries used up the page
// says the server can't be reached and "Retry failed files" finishes the job; a waiting
// file can be cancelled. An owner whose new share's upload a reload interrupted is sent
// to the share page and continues there; one into a deleted share is forgotten. Leaving
// the page mid-upload publishes nothing and keeps the guest's send to continue; a send
// whose files are all cancelled is neither published nor announced. Screenshots of the
// states are taken for docs/screens/ (`npm run screens`).
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from '@playwright/test';
import { startServer, type Json, type TestServer } from '../support/server.js';
import { Api, expect, test } from './fixtures.js';
import { MiB, pngImage, randomFile, sha256, throttleUpload } from './helpers.js';
import { screenPath } from './screens.js';

const screens = {
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  desktop: { viewport: { width: 1280, height: 800 } },
} as const;

/** A browser context in a screen, theme and language, as a first visit would start. */
async function guestPage(browser: Browser, baseURL: string, screen: keyof typeof screens, theme: string, lang: string) {
  const context = await browser.newContext({ baseURL, ...screens[screen] });
  await context.addInitScript(
    ([l, th]) => {
      if (localStorage.getItem('language') === null) localStorage.setItem('language', l!);
      if (localStorage.getItem('uiTheme') === null) localStorage.setItem('uiTheme', th!);
    },
    [lang, theme],
  );
  return { context, page: await context.newPage() };
}

const sentOf = async (row: Locator): Promise<number> => Number(await row.getAttribute('data-sent'));

// Short retries for the "can't be reached" test: one at once, one after 10 s.
test.use({ serverConfig: { webapp: { 'chunk-size': '1M', 'retry-delays': [0, 10_000] } } });

test('a guest on a phone continues a 100 MB upload after a reload and through a 20 s server stop', async ({ browser }) => {
  test.setTimeout(240_000);
  const dir = mkdtempSync(join(tmpdir(), 'pier-resume-files-'));
  const dataDir = mkdtempSync(join(tmpdir(), 'pier-resume-data-'));
  // 5 MB per request, so a reload lands mid-file; retries span the 20 s the server is away
  const config: Json = {
    webapp: { 'chunk-size': '5M', 'retry-delays': [0, 2000, 4000, 8000, 8000, 8000, 8000] },
    backend: { share: { 'max-size': '110M' } },
  };
  let server: TestServer = await startServer({ dataDir, config });
  const port = Number(new URL(server.url).port);
  const { context, page } = await guestPage(browser, server.url, 'phone', 'light', 'gb');
  try {
    const api = new Api(server);
    const owner = await api.createAccount();
    const aliasId = await api.createAlias(owner.token, { name: 'Party photos' });

    const photos = await Promise.all(
      [1, 2, 3].map(async (i) => {
        const path = join(dir, `photo-${i}.png`);
        writeFileSync(path, await pngImage(300 + i, 200));
        return path;
      }),
    );
    const bigBytes = randomFile(100 * MiB);
    const big = join(dir, 'big.bin');
    writeFileSync(big, bigBytes);
    // never read: refused before sending
    const huge = join(dir, 'huge.bin');
    writeFileSync(huge, '');
    truncateSync(huge, 120 * MiB);
    const chosen = [...photos, big, huge];

    const creations: string[] = [];
    const patches: { url: string; offset: number }[] = [];
    page.on('request', (r) => {
      const path = new URL(r.url()).pathname;
      if (r.method() === 'POST' && path.endsWith('/files/tus')) creations.push(path);
      if (r.method() === 'PATCH') patches.push({ url: r.url(), offset: Number(r.headers()['upload-offset']) });
    });
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.type());
      void d.accept();
    });

    await page.goto(`/app/share/${aliasId}`);
    await throttleUpload(page, 8 * MiB);
    await page.locator('[data-test=file-input]').setInputFiles(chosen);
    await page.locator('[data-test=guest-send]').tap();

    // The file too large for the link is refused before anything is sent; the rest goes.
    const refusals = page.locator('[data-test=upload-refusals]');
    await expect(refusals).toContainText('1 file does not fit.');
    await expect(refusals.locator('li')).toHaveText([/huge\.bin.*too large even on its own/]);
    expect(creations).toEqual([]);
    expect(await api.searchShares(owner.token)).toEqual([]);
    await page.screenshot({ path: 'test-results/screenshots/upload-refused-phone-light.png', fullPage: true });
    await refusals.locator('[data-test=send-rest]').tap();

    const bigRow = page.locator('[data-test=upload-progress] li[data-file="big.bin"]');
    await expect.poll(() => sentOf(bigRow), { timeout: 30_000 }).toBeGreaterThan(35 * MiB);
    await expect(page.locator('li[data-state=done]')).toHaveCount(3);
    await expect(page.locator('[data-test=speed]')).toHaveText(/[\d.]+ MB\/s/);
    await expect(page.locator('[data-test=eta]')).toHaveText(/about \d+ s left/);
    await expect(bigRow.locator('[data-test=file-numbers]')).toHaveText(/MB of 100\.0 MB · \d+ %/);
    await page.screenshot({ path: screenPath('upload-progress-phone-light'), fullPage: true });
    const [share] = await api.searchShares(owner.token);
    const shareId = share!.id;

    // Reload half-way: the page warns first.
    // what the page had sent when it went away, kept across the reload
    await page.evaluate(() =>
      addEventListener('pagehide', () =>
        sessionStorage.setItem('sent-at-unload', document.querySelector('[data-test=upload-progress] li[data-file="big.bin"]')!.getAttribute('data-sent')!),
      ),
    );
    const bigUrl = patches.at(-1)!.url;
    await page.reload();
    const sentBefore = Number(await page.evaluate(() => sessionStorage.getItem('sent-at-unload')));
    expect(sentBefore).toBeGreaterThan(35 * MiB);
    expect(dialogs).toEqual(['beforeunload']);
    await expect(page.locator('[data-test=resume-hint]')).toBeVisible();
    const before = (await api.shareDetail(owner.token, shareId)).files.find((f) => f.filename === 'big.bin')!;
    expect(before.storedSize).toBeGreaterThan(30 * MiB);
    expect(before.storedSize).toBeLessThan(bigBytes.length);

    // Meanwhile a recipient sees the half-sent file marked, with nothing to download.
    const pid = await api.publish(owner.token, shareId);
    const recipient = await browser.newContext({ baseURL: server.url });
    const rp = await recipient.newPage();
    await rp.goto(`/app/open/${pid}`);
    const bigFile = rp.locator('[data-test=file-list] li[data-file="big.bin"]');
    await expect(bigFile.locator('[data-test=incomplete]')).toBeVisible();
    await expect(bigFile.locator('[data-test=download]')).toHaveCount(0);
    await expect(rp.locator('[data-test=photo-tile]')).toHaveCount(3);
    await recipient.close();

    // The same files chosen again continue into the same share, from the server's offset.
    await throttleUpload(page, 8 * MiB);
    const patchesBefore = patches.length;
    await page.locator('[data-test=file-input]').setInputFiles(chosen);
    await page.locator('[data-test=guest-send]').tap();
    await refusals.locator('[data-test=send-rest]').tap();
    await expect(bigRow).toHaveAttribute('data-resumed-from', String(before.storedSize));
    await expect(bigRow.locator('[data-test=resumed]')).toBeVisible();
    await expect.poll(() => patches.length).toBeGreaterThan(patchesBefore);
    const firstAfter = patches.slice(patchesBefore)[0]!;
    expect(firstAfter).toEqual({ url: bigUrl, offset: before.storedSize });
    const wentBack = sentBefore - before.storedSize;
    test.info().annotations.push({ type: 'went back after the reload', description: `${wentBack} bytes (sent ${sentBefore}, the server kept ${before.storedSize})` });
    console.log(`after the reload the 100 MB upload went back ${wentBack} bytes: the page had sent ${sentBefore}, the server kept ${before.storedSize}`);
    expect(wentBack).toBeLessThanOrEqual(5 * MiB);

    // The server goes away for 20 s: a countdown and "Retry now", no frozen speed; then it finishes alone.
    await expect.poll(() => sentOf(bigRow), { timeout: 30_000 }).toBeGreaterThan(65 * MiB);
    await server.stop();
    const stoppedAt = Date.now();
    const lost = page.locator('[data-test=connection-lost]');
    await expect(lost).toContainText(/Connection lost, retrying in \d+ s/);
    await expect(lost.locator('[data-test=retry-now]')).toBeVisible();
    await expect(page.locator('[data-test=speed]')).toHaveCount(0);
    await expect(page.locator('[data-test=eta]')).toHaveCount(0);
    await page.screenshot({ path: screenPath('upload-retrying-phone-light'), fullPage: true });
    // the outage's length is the test: 20 s without a server, the client keeps retrying
    await page.waitForTimeout(20_000 - (Date.now() - stoppedAt));
    await expect(page.locator('[data-test=unreachable]')).toHaveCount(0);
    server = await startServer({ dataDir, config: { ...config, bind: { address: '127.0.0.1', port } } });
    await expect(page.locator('li[data-state=done]')).toHaveCount(4, { timeout: 30_000 });
    await expect(page.locator('[data-test=total-progress]')).toHaveAttribute('aria-valuenow', '100');
    await expect(lost).toHaveCount(0);
    await expect(page.locator('body')).not.toContainText('[object');

    // The server holds each file once, the big one under the same id, with the same bytes.
    const after = await new Api(server).shareDetail(owner.token, shareId);
    expect(after.files.map((f) => f.filename).sort()).toEqual(['big.bin', 'photo-1.png', 'photo-2.png', 'photo-3.png']);
    const bigAfter = after.files.find((f) => f.filename === 'big.bin')!;
    expect(bigAfter.id).toBe(before.id);
    expect(bigAfter.storedSize).toBe(bigBytes.length);
    const res = await fetch(`${server.url}/api/v2/sec/share/${shareId}/file/${bigAfter.id}`, { headers: { 'Service-Auth': owner.token } });
    expect(sha256(new Uint8Array(await res.arrayBuffer()))).toBe(sha256(bigBytes));
    // one creation per file, and the big file sent from 0 only once
    expect(creations).toHaveLength(4);
    expect(patches.filter((p) => p.url === bigUrl && p.offset === 0)).toHaveLength(1);
    expect(patches.slice(patchesBefore).every((p) => p.url !== bigUrl || p.offset >= before.storedSize)).toBe(true);
  } finally {
    await context.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  }
});

const words = {
  gb: { lost: /Connection lost, retrying in 10 s/, unreachable: "The server can't be reached. Your files are safe: the upload continues by itself" },
  de: { lost: /Verbindung unterbrochen, neuer Versuch in 10 s/, unreachable: 'Der Server ist nicht erreichbar. Deine Dateien sind sicher: Der Upload geht von selbst weiter' },
} as const;

for (const [screen, theme, lang, byItself] of [
  ['desktop', 'dark', 'gb', false],
  ['phone', 'light', 'de', true],
] as const) {
  const ending = byItself ? 'the page continues by itself when the server is back' : '"Retry failed files" finishes';
  test(`with the retries used up the page says the server can't be reached, progress never goes back, and ${ending}; a file is cancelled (${screen}, ${theme}, ${lang})`, async ({
    browser,
    api,
    server,
  }) => {
    const owner = await api.createAccount();
    const aliasId = await api.createAlias(owner.token, { name: 'Inbox' });
    const { context, page } = await guestPage(browser, server.url, screen, theme, lang);
    const shot = (name: string) =>
      page.screenshot({ path: lang === 'gb' ? screenPath(`${name}-${screen}-${theme}`) : `test-results/screenshots/${name}-${screen}-${theme}-${lang}.png`, fullPage: true });
    // long enough at the throttled rate to be still on its way when the connection drops
    const video = randomFile(16 * MiB);
    const notes = Buffer.from('bring snacks\n');

    await page.goto(`/app/share/${aliasId}`);
    await throttleUpload(page, 1 * MiB);
    await page.locator('[data-test=file-input]').setInputFiles([
      { name: 'video.bin', mimeType: 'application/octet-stream', buffer: video },
      { name: 'cancel-me.bin', mimeType: 'application/octet-stream', buffer: randomFile(MiB) },
      { name: 'notes.txt', mimeType: 'text/plain', buffer: notes },
    ]);
    await page.locator('[data-test=guest-send]').click();
    const row = page.locator('[data-test=upload-progress] li[data-file="video.bin"]');
    await expect.poll(() => sentOf(row), { timeout: 20_000 }).toBeGreaterThan(1.2 * MiB);
    await expect(page.locator('[data-test=speed]')).toBeVisible();

    // A waiting file is cancelled: it never reaches the server.
    const cancelled = page.locator('[data-test=upload-progress] li[data-file="cancel-me.bin"]');
    await cancelled.locator('[data-test=cancel-file]').click();
    await expect(cancelled).toHaveAttribute('data-state', 'cancelled');
    await shot('upload-progress');

    // The connection drops: a countdown with "Retry now", and no speed; the progress
    // stays where it was, the bytes being safe on the server.
    const sentBefore = await sentOf(row);
    let refused = 0;
    await page.route('**/files/tus/**', (r) => {
      refused++;
      return r.abort('connectionrefused');
    });
    const lost = page.locator('[data-test=connection-lost]');
    await expect(lost).toContainText(words[lang].lost, { timeout: 15_000 });
    await expect(page.locator('[data-test=speed]')).toHaveCount(0);
    expect(await sentOf(row)).toBeGreaterThanOrEqual(sentBefore);
    await shot('upload-retrying');
    const before = refused;
    await lost.locator('[data-test=retry-now]').click();
    await expect.poll(() => refused).toBeGreaterThan(before);

    // No retries left: the files wait, and say so in words.
    const unreachable = page.locator('[data-test=unreachable]');
    await expect(unreachable).toContainText(words[lang].unreachable);
    await expect(row).toHaveAttribute('data-state', 'offline');
    expect(await sentOf(row)).toBeGreaterThanOrEqual(sentBefore);
    // waiting for the server is not a pause: nothing to pause or resume, only "Retry failed files"
    await expect(page.locator('[data-test=pause], [data-test=resume]')).toHaveCount(0);
    await expect(page.locator('body')).not.toContainText('[object');
    await expect(page.locator('body')).not.toContainText('tus:');
    await shot('upload-unreachable');
    // nothing sticks out sideways, whatever the language
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(screens[screen].viewport.width);

    // The server is back: "Retry failed files" goes on at once; left alone, the page
    // tries again by itself (every 10 s here, the last retry delay) and finishes too.
    await page.unroute('**/files/tus/**');
    await throttleUpload(page, -1);
    if (byItself) await expect.poll(() => sentOf(row), { timeout: 20_000 }).toBeGreaterThan(sentBefore);
    else await unreachable.locator('[data-test=retry-failed]').click();
    await expect(page.locator('li[data-state=done]')).toHaveCount(2, { timeout: 30_000 });
    await expect(unreachable).toHaveCount(0);

    const [share] = await api.searchShares(owner.token);
    const detail = await api.shareDetail(owner.token, share!.id);
    const files = new Map(detail.files.map((f) => [f.filename, f]));
    expect([...files.keys()].sort()).toEqual(['notes.txt', 'video.bin']);
    expect(files.get('video.bin')!.storedSize).toBe(video.length);
    const res = await fetch(`${server.url}/api/v2/sec/share/${share!.id}/file/${files.get('video.bin')!.id}`, { headers: { 'Service-Auth': owner.token } });
    expect(sha256(new Uint8Array(await res.arrayBuffer()))).toBe(sha256(video));
    await context.close();
  });
}

test("an owner's upload cut by a reload is pointed out on the new-share page and continues on the share page", async ({ userPage: page, api, user }) => {
  const dir = mkdtempSync(join(tmpdir(), 'pier-resume-owner-'));
  try {
    const bytes = randomFile(6 * MiB);
    const path = join(dir, 'trip.bin');
    writeFileSync(path, bytes);
    page.on('dialog', (d) => void d.accept());

    await page.goto('/app/share');
    await page.getByLabel('Name').fill('Trip video');
    await throttleUpload(page, 1 * MiB);
    await page.locator('[data-test=file-input]').setInputFiles(path);
    await page.locator('[data-test=submit-share]').click();
    const row = page.locator('[data-test=upload-progress] li[data-file="trip.bin"]');
    await expect.poll(() => sentOf(row), { timeout: 20_000 }).toBeGreaterThan(2 * MiB);
    await page.reload();

    const notice = page.locator('[data-test=interrupted]');
    await expect(notice).toContainText('The upload into “Trip video” did not finish.');
    await notice.getByRole('link').click();
    await expect(page.locator('[data-test=resume-hint]')).toBeVisible();
    const [share] = await api.searchShares(user.token, 'Trip');
    const stored = (await api.shareDetail(user.token, share!.id)).files[0]!;
    expect(stored.storedSize).toBeGreaterThan(0);
    await expect(page.locator('[data-test=file-list] li[data-file="trip.bin"] [data-test=incomplete]')).toBeVisible();

    await throttleUpload(page, -1);
    await page.locator('#panel-add [data-test=file-input]').setInputFiles(path);
    await expect(row).toHaveAttribute('data-resumed-from', String(stored.storedSize));
    await expect(row).toHaveAttribute('data-state', 'done');
    await expect(page.locator('[data-test=file-list] li[data-file="trip.bin"] [data-test=incomplete]')).toHaveCount(0);
    const after = (await api.shareDetail(user.token, share!.id)).files;
    expect(after.map((f) => [f.id, f.storedSize])).toEqual([[stored.id, bytes.length]]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// Leaving the page mid-upload does not end the batch as if it were through: the owner's
// half-sent share is not published, and the guest's send stays open (its owner not told,
// the continuation kept). The files take 12 s at the throttled rate, so a slow machine
// still leaves while they are on their way.
test('leaving the page mid-upload publishes nothing and keeps the send to continue', async ({ userPage: page, browser, api, user, server }) => {
  page.on('dialog', (d) => void d.accept());
  await page.goto('/app/share');
  await page.getByLabel('Name').fill('Left behind');
  await throttleUpload(page, 1 * MiB);
  await page.locator('[data-test=file-input]').setInputFiles({ name: 'big.bin', mimeType: 'application/octet-stream', buffer: randomFile(12 * MiB) });
  await page.locator('[data-test=submit-share]').click();
  const row = page.locator('[data-test=upload-progress] li[data-file="big.bin"]');
  await expect.poll(() => sentOf(row), { timeout: 20_000 }).toBeGreaterThan(MiB);
  const published = page.waitForRequest(/\/publish$/, { timeout: 3000 }).then(
    () => true,
    () => false,
  );
  await page.locator('header .brand').click();
  await expect(page).not.toHaveURL(/\/app\/share$/);
  expect(await published).toBe(false);
  const [share] = await api.searchShares(user.token, 'Left behind');
  expect((await api.shareDetail(user.token, share!.id)).publishInfo).toBeNull();

  const aliasId = await api.createAlias(user.token, { name: 'Drop box' });
  const { context, page: guest } = await guestPage(browser, server.url, 'desktop', 'light', 'gb');
  guest.on('dialog', (d) => void d.accept());
  await guest.goto(`/app/share/${aliasId}`);
  await throttleUpload(guest, 1 * MiB);
  await guest.locator('[data-test=file-input]').setInputFiles({ name: 'big.bin', mimeType: 'application/octet-stream', buffer: randomFile(12 * MiB) });
  await guest.locator('[data-test=guest-send]').click();
  const guestRow = guest.locator('[data-test=upload-progress] li[data-file="big.bin"]');
  await expect.poll(() => sentOf(guestRow), { timeout: 20_000 }).toBeGreaterThan(MiB);
  const notified = guest.waitForRequest(/\/alias\/mail\/notify\//, { timeout: 3000 }).then(
    () => true,
    () => false,
  );
  await guest.locator('header .brand').click();
  await expect(guest).not.toHaveURL(new RegExp(aliasId));
  expect(await notified).toBe(false);
  await guest.goBack();
  await expect(guest.locator('[data-test=resume-hint]')).toBeVisible();
  await context.close();
});

// The new-share page looks at every share with an unfinished upload: one deleted since
// (404) is forgotten and does not hide the others.
test('an unfinished upload into a deleted share is forgotten and the next one is pointed out', async ({ userPage: page, api, user, server }) => {
  const kept = await api.createShare(user.token, { name: 'Still here' });
  const gone = await api.createShare(user.token, { name: 'Deleted' });
  const res = await fetch(`${server.url}/api/v2/sec/share/${gone}`, { method: 'DELETE', headers: { 'Service-Auth': user.token } });
  expect(res.ok).toBe(true);
  const key = (shareId: string) => `pier.upload::${JSON.stringify([`/api/v2/sec/upload/${shareId}/files/tus`, 'a.bin', 10, 1])}`;
  const seed = (shareId: string) =>
    page.evaluate(
      ([k, url]) => localStorage.setItem(k!, JSON.stringify({ size: 10, metadata: {}, creationTime: 'now', uploadUrl: url, parallelUploadUrls: null, urlStorageKey: k, savedAt: Date.now() })),
      [key(shareId), `${server.url}/api/v2/sec/upload/${shareId}/files/tus/x`],
    );

  await page.goto('/app/home');
  await seed(gone);
  await page.goto('/app/share');
  await expect.poll(() => page.evaluate((k) => localStorage.getItem(k), key(gone))).toBeNull();
  await expect(page.locator('[data-test=interrupted]')).toHaveCount(0);

  await seed(gone);
  await seed(kept);
  await page.reload();
  await expect(page.locator('[data-test=interrupted]')).toContainText('“Still here”');
});

// With every file cancelled nothing arrived: the empty share is not published, its owner
// is not told, and the guest is not shown "sent".
test('a send whose files are all cancelled is neither published nor announced', async ({ userPage: page, browser, api, user, server }) => {
  const cancelAll = async (p: Page) => {
    await p.locator('[data-test=cancel-all]').click();
    await p.locator('[data-test=confirm-yes]').click();
  };
  await page.goto('/app/share');
  await page.getByLabel('Name').fill('All cancelled');
  await throttleUpload(page, 1 * MiB);
  await page.locator('[data-test=file-input]').setInputFiles({ name: 'big.bin', mimeType: 'application/octet-stream', buffer: randomFile(3 * MiB) });
  await page.locator('[data-test=submit-share]').click();
  await expect.poll(() => sentOf(page.locator('[data-test=upload-progress] li[data-file="big.bin"]')), { timeout: 20_000 }).toBeGreaterThan(0);
  await cancelAll(page);
  await expect(page.locator('[data-test=go-to-share]')).toBeVisible();
  const [share] = await api.searchShares(user.token, 'All cancelled');
  expect((await api.shareDetail(user.token, share!.id)).publishInfo).toBeNull();

  const aliasId = await api.createAlias(user.token, { name: 'Cancelled box' });
  const { context, page: guest } = await guestPage(browser, server.url, 'desktop', 'light', 'gb');
  let notified = 0;
  guest.on('request', (r) => {
    if (r.url().includes('/alias/mail/notify/')) notified++;
  });
  await guest.goto(`/app/share/${aliasId}`);
  await throttleUpload(guest, 1 * MiB);
  await guest.locator('[data-test=file-input]').setInputFiles({ name: 'big.bin', mimeType: 'application/octet-stream', buffer: randomFile(3 * MiB) });
  await guest.locator('[data-test=guest-send]').click();
  await expect.poll(() => sentOf(guest.locator('[data-test=upload-progress] li[data-file="big.bin"]')), { timeout: 20_000 }).toBeGreaterThan(0);
  await cancelAll(guest);
  await expect(guest.locator('[data-test=guest-send]')).toBeVisible();
  await expect(guest.locator('[data-test=guest-done]')).toHaveCount(0);
  expect(notified).toBe(0);
  await context.close();
});
