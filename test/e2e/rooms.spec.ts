// Rooms in Chromium against a real mpd: the owner's one tap from the player page to the
// room's QR code, and a guest's journey on a 390×844 touch phone in their browser's
// language (join, search, add, see the song queued with their name, vote to skip) in at
// most four taps, surviving a reload; a closed room says so. Screenshots light and dark,
// phone and desktop, with axe.
import type { Browser, Page } from '@playwright/test';
import { expect } from './fixtures.js';
import { expectAccessible, screenshotsLightDark } from './page-checks.js';
import { test } from './player-fixtures.js';

const BIG = 'Artist Three/Big Album/01 - Big.flac';

test.beforeEach(({ mpd }) => {
  mpd.mpc('stop');
  mpd.mpc('clear');
  mpd.mpc('repeat', 'off');
  mpd.mpc('single', 'off');
  mpd.mpc('add', BIG);
  mpd.mpc('play');
  mpd.mpc('pause');
});

/** A phone: 390×844, touch, German browser language. */
const phone = (browser: Browser) =>
  browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, locale: 'de-DE', deviceScaleFactor: 2 });

/** Counts the taps (pointer presses) the guest makes on the page. */
const countTaps = (page: Page) =>
  page.addInitScript(() => {
    (window as unknown as { taps: number }).taps = 0;
    window.addEventListener('pointerdown', () => ((window as unknown as { taps: number }).taps += 1), true);
  });
const taps = (page: Page) => page.evaluate(() => (window as unknown as { taps: number }).taps);

test('the owner gets the room\'s QR code with one tap from the player page, and keeps the room open longer', async ({ adminPage: page, server, api }) => {
  await page.goto('/app/player');
  await expect(page.locator('[data-test=live-state]')).toHaveText('Live');
  await countTaps(page);
  await page.reload();
  await expect(page.locator('[data-test=room-invite]')).toBeVisible();
  await page.locator('[data-test=room-invite]').click();
  const dialog = page.locator('[data-test=qr-dialog]');
  await expect(dialog).toBeVisible();
  await expect(dialog.locator('img')).toBeVisible();
  await expect(dialog.locator('.link')).toContainText('/app/room/');
  const roomId = decodeURIComponent((await dialog.locator('.link').innerText()).split('/app/room/')[1]!.trim());
  expect(await taps(page)).toBe(1);
  await page.screenshot({ path: 'test-results/screenshots/room-owner-qr.png' });
  await page.locator('[data-test=qr-close]').click();
  await expect(page.locator('[data-test=room-panel]')).toBeVisible();
  await screenshotsLightDark(page, 'room-owner-player', { axe: true });

  // the owner keeps the room open longer: a week from now instead of the day it was made for
  const token = (await api.admin()).token;
  const validUntil = async () =>
    (await server.request<{ items: { id: string; validUntil: number }[] }>('GET', '/api/v1/rooms', undefined, { token })).body.items.find((r) => r.id === roomId)!.validUntil;
  expect(await validUntil()).toBeLessThan(Date.now() + 24 * 3600 * 1000 + 60_000);
  await page.locator('[data-test=room-panel] summary').click();
  await page.locator('[data-test=room-open-for]').selectOption({ label: '7 days from now' });
  const saved = page.waitForResponse((r) => r.url().includes(`/api/v1/rooms/${roomId}`) && r.request().method() === 'PUT');
  await page.getByRole('button', { name: 'Save' }).click();
  expect((await saved).status()).toBe(200);
  const week = 7 * 24 * 3600 * 1000;
  await expect.poll(async () => (await validUntil()) - Date.now()).toBeGreaterThan(week - 60_000);
});

test('a guest joins, finds, adds, sees it queued with their name and votes in four taps, on a phone, in German', async ({ browser, server, api }) => {
  const admin = await api.admin();
  const created = await server.request<{ id: string }>('POST', '/api/v1/rooms', { name: 'Gartenparty', songsPerGuest: 2, skipVotes: 2 }, { token: admin.token });
  const room = created.body.id;
  const context = await phone(browser);
  const page = await context.newPage();
  await countTaps(page);
  await page.goto(`${server.url}/app/room/${room}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Gartenparty' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Beitreten' })).toBeVisible();
  await screenshotsLightDark(page, 'room-guest-join-phone', { axe: true });
  // the theme switches of the screenshots are not the guest's taps
  await page.evaluate(() => ((window as unknown as { taps: number }).taps = 0));

  // the name is typed (no tap: the field is the first one) and joined with one tap
  await page.keyboard.press('Tab');
  await page.getByLabel('Dein Name (optional)').fill('Lena');
  await page.getByRole('button', { name: 'Beitreten' }).tap();
  await expect(page.getByText('Pausiert')).toBeVisible();
  await expect(page.locator('[data-test=room-current]')).toHaveText('Big Song');

  // tap the search field, type: results come while typing
  await page.getByLabel('Lied suchen').tap();
  await page.keyboard.type('blue song');
  const add = page.locator('[data-test=room-results] [data-test=room-add]').first();
  await expect(add).toBeVisible();
  await add.tap();
  await expect(page.locator('[data-test=room-notice]')).toContainText('hinzugefügt');
  await expect(page.locator('[data-test=room-queue] li').first()).toContainText('von dir hinzugefügt');

  // vote to skip: one of two votes
  await page.locator('[data-test=room-skip]').tap();
  await expect(page.locator('[data-test=room-skip]')).toContainText('1 von 2');
  // join, search field, add, vote: four taps after the page opened
  expect(await taps(page)).toBe(4);
  await screenshotsLightDark(page, 'room-guest-phone', { axe: true });

  // a reload stays in the room
  await page.reload();
  await expect(page.locator('[data-test=room-current]')).toHaveText('Big Song');
  await expect(page.locator('[data-test=room-queue] li').first()).toContainText('von dir hinzugefügt');

  // the owner closes the room: the page says so
  await server.request('DELETE', `/api/v1/rooms/${room}`, undefined, { token: admin.token });
  await expect(page.locator('[data-test=room-closed]')).toBeVisible();
  await screenshotsLightDark(page, 'room-guest-closed-phone', { axe: true });
  await context.close();
});

test('the guest page on a desktop, with the song limit reached', async ({ page, server, api, mpd }) => {
  const admin = await api.admin();
  const room = (await server.request<{ id: string }>('POST', '/api/v1/rooms', { name: 'Office Friday', songsPerGuest: 1 }, { token: admin.token })).body.id;
  await page.goto(`/app/room/${room}`);
  await page.getByLabel('Your name (optional)').fill('Sam <b>');
  await page.getByRole('button', { name: 'Join' }).click();
  await expect(page.locator('[data-test=room-current]')).toHaveText('Big Song');
  await page.getByLabel('Find a song').fill('orange');
  await page.getByRole('button', { name: 'Add “Orange Song”' }).click();
  await expect(page.locator('[data-test=room-limit]')).toBeVisible();
  await expect(page.locator('[data-test=room-yours]')).toContainText('Orange Song');
  await expect(page.locator('[data-test=room-queue]')).toContainText('added by you');
  expect(mpd.mpc('-f', '%file%', 'playlist').trim().split('\n')).toHaveLength(2);
  await expectAccessible(page, 'room guest desktop');
  await screenshotsLightDark(page, 'room-guest-desktop', { axe: true });
});
