// The home page's player block against a real music player daemon: it shows what is
// playing and follows changes live, never starts playback by itself, and is hidden while
// the daemon does not answer and when the player is switched off.
import { startServer } from '../support/server.js';
import { Api, expect, signInContext } from './fixtures.js';
import { expectAccessible } from './page-checks.js';
import { test } from './player-fixtures.js';
import { screenPath } from './screens.js';

test('home shows the playing song live, starts nothing, and hides while the daemon is away', async ({ userPage: page, mpd }) => {
  test.setTimeout(120_000);
  mpd.mpc('stop');
  mpd.mpc('clear');
  mpd.mpc('add', 'Artist One/Blue Album');
  // The test songs last seconds: repeat one song so "the current song" stays put.
  mpd.mpc('repeat', 'on');
  mpd.mpc('single', 'on');

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/app/home');
  const block = page.locator('[data-test=home-now-playing]');
  const title = block.locator('[data-test=home-song-title]');
  await expect(title).toHaveText('Nothing is playing');
  // looking at the home page started nothing
  await page.waitForTimeout(500);
  expect(mpd.mpc('status')).not.toMatch(/\[(playing|paused)\]/);

  // another client plays and pauses: the block follows without a reload
  mpd.mpc('play');
  await expect(title).toHaveText('Blue Song 1');
  await expect(block.locator('[data-test=home-player-state]')).toHaveText('Playing');
  mpd.mpc('pause');
  await expect(block.locator('[data-test=home-player-state]')).toHaveText('Paused');
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((t) => localStorage.setItem('uiTheme', t), theme);
    await page.reload();
    await expect(title).toHaveText('Blue Song 1');
    await expectAccessible(page, `home with the player (${theme})`);
    await page.screenshot({ path: screenPath(`home-player-desktop-${theme}`), fullPage: true });
  }
  await expect(block.getByRole('link')).toHaveAttribute('href', '/app/player');

  // the daemon goes away: the block hides; it comes back with the daemon
  await mpd.stop();
  await expect(block).toHaveCount(0);
  await mpd.start();
  await expect(title).toHaveText('Blue Song 1', { timeout: 30_000 });
});

test('with the player switched off, home asks nothing of the music gateway and shows no player block', async ({ browser }) => {
  const server = await startServer({ config: { player: { enabled: false } } });
  try {
    const api = new Api(server);
    const context = await browser.newContext({ baseURL: server.url });
    await signInContext(context, server.url, await api.createAccount());
    const page = await context.newPage();
    const gatewayCalls: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/api/v1/')) gatewayCalls.push(r.url());
    });
    await page.goto('/app/home');
    await expect(page.locator('[data-test=no-recent-shares]')).toBeVisible();
    // letting a second pass is the test: with the player off the page never asks the gateway
    await page.waitForTimeout(1000);
    await expect(page.locator('[data-test=home-now-playing]')).toHaveCount(0);
    expect(gatewayCalls).toEqual([]);
    await context.close();
  } finally {
    await server.stop();
  }
});
