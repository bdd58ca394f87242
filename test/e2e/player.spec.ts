// The player page against a real music player daemon (test/support/mpd.ts): it shows
// the current song after play, reorders the queue, opens an album with its cover, and
// follows changes made by another client over the WebSocket, without reloading.
import { expect } from './fixtures.js';
import { screenshotsLightDark } from './page-checks.js';
import { test } from './player-fixtures.js';

test.beforeEach(({ mpd }) => {
  mpd.mpc('stop');
  mpd.mpc('clear');
  mpd.mpc('add', 'Artist One/Blue Album');
  mpd.mpc('add', 'Artist Two/Red Album (2CD)');
  // The test songs last seconds: repeat one song so "the current song" stays put.
  mpd.mpc('repeat', 'on');
  mpd.mpc('single', 'on');
  mpd.mpc('random', 'off');
  mpd.mpc('volume', '80');
});

const queueTitles = (page: import('@playwright/test').Page) => page.locator('[data-test=queue] [data-test=queue-title]');

test('play, reorder the queue, open an album, and follow another client live', async ({ userPage: page, mpd, server, user }) => {
  await page.goto('/app/player');
  await expect(page.getByRole('heading', { level: 1, name: 'Player' })).toBeVisible();
  await expect(page.locator('[data-test=live-state]')).toHaveText('Live');
  await expect(queueTitles(page)).toHaveText(['Blue Song 1', 'Blue Song 2', 'Red Song 1', 'Red Song 2']);
  await expect(page.locator('[data-test=current-title]')).toHaveText('Nothing is playing');
  // Marks this document: a reload would lose it.
  await page.evaluate(() => ((window as unknown as { pierMark: number }).pierMark = 42));

  // play: the page shows the current song and the daemon agrees
  await page.locator('[data-test=play-pause]').click();
  await expect(page.locator('[data-test=player-state]')).toHaveText('Playing');
  await expect(page.locator('[data-test=current-title]')).toHaveText('Blue Song 1');
  expect(mpd.mpc('current', '-f', '%title%').trim()).toBe('Blue Song 1');
  await expect(page.locator('[data-test=play-pause]')).toHaveAccessibleName('Pause');

  // reorder the queue
  await page.getByRole('button', { name: 'Move Blue Song 2 down' }).click();
  await expect(queueTitles(page)).toHaveText(['Blue Song 1', 'Red Song 1', 'Blue Song 2', 'Red Song 2']);
  // the page moves the song at once; the daemon has it a moment later
  await expect.poll(() => mpd.mpc('playlist', '-f', '%title%').trim().split('\n')).toEqual(['Blue Song 1', 'Red Song 1', 'Blue Song 2', 'Red Song 2']);
  await page.getByRole('button', { name: 'Remove Red Song 2 from the queue' }).click();
  await expect(queueTitles(page)).toHaveText(['Blue Song 1', 'Red Song 1', 'Blue Song 2']);

  // changes made by another client show up without reloading: mpc, and a direct POST
  mpd.mpc('add', 'Various/Green Album');
  await expect(queueTitles(page)).toHaveText(['Blue Song 1', 'Red Song 1', 'Blue Song 2', 'Green Song "quoted"']);
  const res = await server.request('POST', '/api/v1/player/default', { command: 'setvol 40' }, { token: user.token });
  expect(res.status).toBe(200);
  await expect(page.getByLabel('Volume')).toHaveValue('40');
  mpd.mpc('play', '3');
  await expect(page.locator('[data-test=current-title]')).toHaveText('Blue Song 2');
  expect(await page.evaluate(() => (window as unknown as { pierMark?: number }).pierMark)).toBe(42);

  await screenshotsLightDark(page, 'player', { axe: true });

  // the library: albums as covers; an album page with its cover and songs
  await page.getByRole('tab', { name: 'Library' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Library' })).toBeVisible();
  await page.getByRole('link', { name: 'Blue Album' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Blue Album' })).toBeVisible();
  const cover = page.locator('[data-test=album-cover]');
  await expect(cover).toHaveAttribute('src', /\/api\/v1\/cover\/default\/album\?name=Blue\+Album&size=256/);
  await expect.poll(() => cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(256);
  await expect(page.getByRole('link', { name: 'Booklet (PDF)' })).toBeVisible();
  await page.getByRole('button', { name: 'Add Blue Song 1 to the queue' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'was added to the queue' })).toBeVisible();
  await expect.poll(() => mpd.mpc('playlist', '-f', '%title%').trim().split('\n').length).toBe(5);
  await screenshotsLightDark(page, 'player-album', { axe: true });

  // search, and stored playlists
  await page.getByRole('tab', { name: 'Search' }).click();
  await page.getByLabel('Title, artist, album or file name').fill('purple');
  await expect(page.getByText('Purple Song')).toBeVisible();
  await page.getByRole('tab', { name: 'Playlists' }).click();
  await page.getByLabel('Save the queue as playlist').fill('e2e mix');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.locator('li').filter({ hasText: 'e2e mix' })).toBeVisible();
  expect(mpd.mpc('lsplaylists')).toContain('e2e mix');
  await page.getByRole('button', { name: 'Delete playlist e2e mix' }).click();
  await page.getByRole('button', { name: 'Yes' }).click();
  await expect(page.getByText('There are no stored playlists yet.')).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { pierMark?: number }).pierMark)).toBe(42);
});

test('the player page on a phone screen', async ({ userPage: page, mpd }) => {
  mpd.mpc('play');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/app/player');
  await expect(page.locator('[data-test=current-title]')).not.toHaveText('Nothing is playing');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await screenshotsLightDark(page, 'player-phone', { axe: true });
  await page.goto('/app/player?view=library');
  await expect(page.getByRole('link', { name: 'Red Album' })).toBeVisible();
  await screenshotsLightDark(page, 'player-library-phone');
});

test('the page reconnects by itself when the daemon comes back', async ({ userPage: page, mpd }) => {
  await page.goto('/app/player');
  await expect(page.locator('[data-test=live-state]')).toHaveText('Live');
  await mpd.stop();
  await expect(page.locator('[data-test=live-state]')).not.toHaveText('Live');
  await mpd.start();
  await expect(page.locator('[data-test=live-state]')).toHaveText('Live', { timeout: 30_000 });
  mpd.mpc('add', 'Various/Green Album');
  await expect(queueTitles(page).last()).toHaveText('Green Song "quoted"');
});
