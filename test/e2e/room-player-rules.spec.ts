// "The player must not surprise the room": on the player page adding is the default,
// replacing the queue is explicit and can be undone, and a tap on a song adds it (and
// says so) without cutting off the song that plays.
import { expect } from './fixtures.js';
import { test } from './player-fixtures.js';

const BIG = 'Artist Three/Big Album/01 - Big.flac';
const GREEN = 'Various/Green Album/01 green.ogg';

test.beforeEach(({ mpd }) => {
  mpd.mpc('stop');
  mpd.mpc('clear');
  mpd.mpc('repeat', 'on');
  mpd.mpc('single', 'on');
  mpd.mpc('add', BIG);
  mpd.mpc('add', GREEN);
  mpd.mpc('play');
});

const files = (mpd: { mpc(...a: string[]): string }) => mpd.mpc('-f', '%file%', 'playlist').trim().split('\n');

test('an album is added by default; replacing the queue is explicit, with Undo', async ({ userPage: page, mpd }) => {
  await page.goto('/app/player?view=library&album=Blue%20Album&artist=Artist%20One');
  await page.locator('[data-test=album-add]').click();
  await expect(page.locator('[data-test=player-notice]')).toContainText('Blue Album');
  await expect.poll(() => files(mpd)).toEqual([BIG, GREEN, 'Artist One/Blue Album/01 - Song 1.flac', 'Artist One/Blue Album/02 - Song 2.flac']);
  expect(mpd.mpc('-f', '%file%', 'current').trim()).toBe(BIG);

  await page.locator('[data-test=album-replace]').click();
  await expect(page.locator('[data-test=queue-replaced]')).toBeVisible();
  await expect.poll(() => files(mpd)).toEqual(['Artist One/Blue Album/01 - Song 1.flac', 'Artist One/Blue Album/02 - Song 2.flac']);
  await page.locator('[data-test=undo-replace]').click();
  await expect.poll(() => files(mpd)).toEqual([BIG, GREEN, 'Artist One/Blue Album/01 - Song 1.flac', 'Artist One/Blue Album/02 - Song 2.flac']);
  await expect.poll(() => mpd.mpc('-f', '%file%', 'current').trim()).toBe(BIG);
});

test('a tap on a song adds it and says so; the song that plays goes on', async ({ userPage: page, mpd }) => {
  await page.goto('/app/player?view=library&album=Purple%20Album&artist=Artist%20One');
  await page.locator('[data-test=song-add]').first().click();
  await expect(page.locator('[data-test=player-notice]')).toContainText('Purple Song');
  await expect.poll(() => files(mpd)).toEqual([BIG, GREEN, 'Artist One/Purple Album/01 - Purple.flac']);
  expect(mpd.mpc('-f', '%file%', 'current').trim()).toBe(BIG);
  // playing at once is a second, explicit button
  await page.locator('[data-test=song-play]').first().click();
  await expect.poll(() => mpd.mpc('-f', '%file%', 'current').trim()).toBe('Artist One/Purple Album/01 - Purple.flac');
});
