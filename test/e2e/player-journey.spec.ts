// The player page as people in a room use it, on a phone (touch) and on a desktop, in
// English and German (axe in light and dark where the screenshots are taken), against a real daemon: tap a song in the queue to play
// it; drag a song to a new place (touch on the phone, mouse on the desktop) and move one
// with Alt+arrow keys (announced); a change made with `mpc` shows within 2 s; the mini
// player, the tab title and the media session follow the song; the media session's
// "next" and the play/pause media key work; "Clear queue" asks, and Undo brings back the
// songs in order and the playing song; on the library tab the mini player stays, covers
// load lazily at the size shown; tapping a library song plays it; a song goes into a new
// stored playlist, which opens and plays. On a phone, a song held at the bottom edge of a
// long queue scrolls the page on; a song dragged while `mpc` changes the queue is the one
// that moves. Screenshots (of the screen as seen, the bar at its bottom) are taken for
// docs/screens/ (`npm run screens`).
import type { Browser, Page } from '@playwright/test';
import commonDe from '../../renderer/src/i18n/common.de.js';
import commonGb from '../../renderer/src/i18n/common.gb.js';
import playerDe from '../../renderer/src/i18n/player.de.js';
import playerGb from '../../renderer/src/i18n/player.gb.js';
import { playerConfig } from '../support/mpd-server.js';
import { combos } from './combos.js';
import { expect, signInContext, type Account } from './fixtures.js';
import { checkBothThemes } from './page-checks.js';
import { test as base } from './player-fixtures.js';

// Two rooms, so the page offers the switch between them.
const test = base.extend<object, object>({
  serverConfig: [
    async ({ mpd }, use) => use(playerConfig(mpd, { connections: { kitchen: { host: '127.0.0.1', port: mpd.port, title: 'Kitchen' } } })),
    { scope: 'worker' },
  ],
});

const messages = { gb: { player: playerGb, common: commonGb }, de: { player: playerDe, common: commonDe } } as const;
const locales = { gb: 'en-GB', de: 'de-DE' } as const;
const fill = (text: string, vars: Record<string, string | number>): string => text.replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k]));

const screens = {
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
  desktop: { viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 },
} as const;

/** A signed-in browser of the given screen, theme and language; media session handlers are kept where the test can call them. */
async function openBrowser(browser: Browser, baseURL: string, user: Account, screen: keyof typeof screens, theme: 'light' | 'dark', lang: 'gb' | 'de') {
  const context = await browser.newContext({ ...screens[screen], baseURL, colorScheme: theme, locale: locales[lang] });
  await signInContext(context, baseURL, user);
  await context.addInitScript(() => {
    const handlers: Record<string, MediaSessionActionHandler | null> = {};
    (window as unknown as { mediaHandlers: typeof handlers }).mediaHandlers = handlers;
    const set = navigator.mediaSession.setActionHandler.bind(navigator.mediaSession);
    navigator.mediaSession.setActionHandler = (action, handler) => {
      handlers[action] = handler;
      set(action, handler);
    };
  });
  return context;
}

const queueTitles = (page: Page) => page.locator('[data-test=queue] [data-test=queue-title]');
const titlesOf = (text: string): string[] => text.trim().split('\n').filter(Boolean);

/** Drags a queue row by its grip to `fraction` of the height of row `target` (touch on a phone, else the mouse). */
async function dragRow(page: Page, from: number, target: number, fraction: number, touch: boolean): Promise<void> {
  // the queue at the top of the screen, away from the edges where a held row scrolls the page
  await page.locator('#queue-heading').evaluate((h) => h.scrollIntoView({ block: 'start' }));
  const rows = page.locator('[data-test=queue] > li');
  const grip = (await rows.nth(from).locator('[data-test=queue-grip]').boundingBox())!;
  const box = (await rows.nth(target).boundingBox())!;
  const x = grip.x + grip.width / 2;
  const y0 = grip.y + grip.height / 2;
  const y1 = box.y + box.height * fraction;
  const steps = 8;
  if (touch) {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y: y0 }] });
    for (let i = 1; i <= steps; i++) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y: y0 + ((y1 - y0) * i) / steps }] });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await cdp.detach();
  } else {
    await page.mouse.move(x, y0);
    await page.mouse.down();
    await page.mouse.move(x, y1, { steps });
    await page.mouse.up();
  }
}

test.beforeEach(({ mpd }) => {
  mpd.mpc('stop');
  mpd.mpc('clear');
  for (const name of titlesOf(mpd.mpc('lsplaylists'))) mpd.mpc('rm', name);
  mpd.mpc('add', 'Artist One/Blue Album');
  mpd.mpc('add', 'Artist Two/Red Album (2CD)');
  // The test songs last seconds: repeat one song so "the current song" stays put.
  mpd.mpc('repeat', 'on');
  mpd.mpc('single', 'on');
  mpd.mpc('random', 'off');
  mpd.mpc('consume', 'off');
});

for (const { screen, theme, lang } of combos) {
  test(`tap to play, drag and keyboard reorder, clear and undo, live changes, library and playlists (${screen}, ${theme}, ${lang})`, async ({
    browser,
    server,
    user,
    mpd,
  }) => {
    // a long journey: on a busy two-core machine it takes over a minute
    test.setTimeout(150_000);
    const m = messages[lang].player;
    const yes = messages[lang].common.yes;
    const touch = screen === 'phone';
    const context = await openBrowser(browser, server.url, user, screen, theme, lang);
    const page = await context.newPage();
    const playlist = () => titlesOf(mpd.mpc('playlist', '-f', '%title%'));
    const currentTitle = () => mpd.mpc('current', '-f', '%title%').trim();

    await page.goto('/app/player');
    await expect(page.locator('[data-test=live-state]')).toHaveText(m.live);
    await expect(queueTitles(page)).toHaveText(['Blue Song 1', 'Blue Song 2', 'Red Song 1', 'Red Song 2']);
    await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /dark/ : /^(?!.*dark).*$/);

    // words for people: the room switch, "remove songs after playing", repeat one
    await expect(page.getByLabel(m.room)).toHaveValue('default');
    await expect(page.getByRole('button', { name: m.consume })).toHaveAttribute('aria-pressed', 'false');
    await expect(page.getByRole('button', { name: m.single })).toHaveAttribute('aria-pressed', 'true');

    // tap a song in the queue: it plays; the mini player, the tab title and the media session follow
    const red1 = page.getByRole('button', { name: fill(m.playSong, { title: 'Red Song 1' }) });
    if (touch) await red1.tap();
    else await red1.click();
    await expect.poll(currentTitle).toBe('Red Song 1');
    const mini = page.locator('[data-test=mini-player]');
    await expect(mini.locator('[data-test=mini-title]')).toHaveText('Red Song 1');
    await expect(mini.locator('[data-test=mini-play-pause]')).toHaveAccessibleName(m.pause);
    await expect(page).toHaveTitle(new RegExp(`^Red Song 1 · Artist Two – ${m.title} – `));
    await expect
      .poll(() => page.evaluate(() => ({ title: navigator.mediaSession.metadata?.title, state: navigator.mediaSession.playbackState })))
      .toEqual({ title: 'Red Song 1', state: 'playing' });
    const artwork = await page.evaluate(() => navigator.mediaSession.metadata?.artwork.map((a) => a.src) ?? []);
    expect(artwork[0]).toMatch(/\/api\/v1\/cover\/default\/file\/Artist%20Two\/Red%20Album%20\(2CD\)\/CD1\/01%20-%20Red%20Song%201\.mp3\?size=256$/);

    // drag the first song below "Red Song 1"
    await dragRow(page, 0, 2, 0.8, touch);
    await expect(queueTitles(page)).toHaveText(['Blue Song 2', 'Red Song 1', 'Blue Song 1', 'Red Song 2']);
    await expect.poll(playlist).toEqual(['Blue Song 2', 'Red Song 1', 'Blue Song 1', 'Red Song 2']);

    // Alt+ArrowUp on the focused last song moves it up one place, says so, and keeps the focus on it
    const red2 = page.getByRole('button', { name: fill(m.playSong, { title: 'Red Song 2' }) });
    await red2.focus();
    await page.keyboard.press('Alt+ArrowUp');
    await expect(queueTitles(page)).toHaveText(['Blue Song 2', 'Red Song 1', 'Red Song 2', 'Blue Song 1']);
    await expect.poll(playlist).toEqual(['Blue Song 2', 'Red Song 1', 'Red Song 2', 'Blue Song 1']);
    await expect(page.locator('[data-test=queue-announcement]')).toHaveText(fill(m.movedTo, { title: 'Red Song 2', pos: 3, n: 4 }));
    await expect(red2).toBeFocused();

    // changes made with mpc show within 2 s
    mpd.mpc('add', 'Various/Green Album');
    await expect(queueTitles(page).last()).toHaveText('Green Song "quoted"', { timeout: 2000 });
    mpd.mpc('play', '1');
    await expect(mini.locator('[data-test=mini-title]')).toHaveText('Blue Song 2', { timeout: 2000 });
    await expect(page.locator('[data-test=current-title]')).toHaveText('Blue Song 2', { timeout: 2000 });

    // the media session's "next track" (lock screen, media keys) plays the next song
    await page.evaluate(() => (window as unknown as { mediaHandlers: Record<string, () => void> }).mediaHandlers['nexttrack']!());
    await expect.poll(currentTitle).toBe('Red Song 1');
    await expect(mini.locator('[data-test=mini-title]')).toHaveText('Red Song 1');
    // a keyboard's play/pause media key pauses and plays again
    const mediaKey = () => page.evaluate(() => window.dispatchEvent(new KeyboardEvent('keydown', { key: 'MediaPlayPause' })));
    await mediaKey();
    await expect.poll(() => mpd.mpc('status')).toContain('[paused]');
    await expect(mini.locator('[data-test=mini-play-pause]')).toHaveAccessibleName(m.play);
    // a second press within 300 ms counts as the same press (key and media session both report it)
    await page.waitForTimeout(300);
    await mediaKey();
    await expect.poll(() => mpd.mpc('status')).toContain('[playing]');
    await expect(mini.locator('[data-test=mini-play-pause]')).toHaveAccessibleName(m.pause);

    // "Clear queue" asks first; Undo restores the songs in order and the playing song
    const before = playlist();
    await page.getByRole('button', { name: m.clearQueue }).click();
    await expect(page.getByRole('group', { name: m.clearQueueQuestion })).toBeVisible();
    expect(playlist()).toEqual(before);
    await page.getByRole('button', { name: yes, exact: true }).click();
    await expect.poll(playlist).toEqual([]);
    await expect(page.locator('[data-test=queue-cleared]')).toBeVisible();
    await expect(page.locator('[data-test=undo-clear]')).toBeFocused();
    await page.locator('[data-test=undo-clear]').click();
    await expect.poll(playlist).toEqual(before);
    await expect.poll(currentTitle).toBe('Red Song 1');
    expect(mpd.mpc('status')).toContain('[playing] #2/5');
    await expect(queueTitles(page)).toHaveText(before);
    await expect(page.locator('[data-test=queue-cleared]')).toHaveCount(0);
    await expect(page.locator('[data-test=current-title]')).toHaveText('Red Song 1');

    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    if (screen === 'phone') await page.locator('#queue-heading').evaluate((h) => h.scrollIntoView({ block: 'start' }));
    await checkBothThemes(page, `player (${screen}, ${lang})`, `player-${screen}`, { fullPage: false });

    // the library: the mini player stays; covers load lazily, as thumbnails of the size shown
    await page.getByRole('tab', { name: m.tab.library }).click();
    await expect(page.getByRole('link', { name: 'Purple Album' })).toBeVisible();
    await expect(mini.locator('[data-test=mini-title]')).toHaveText('Red Song 1');
    const cover = page.locator('[data-test=grid-cover]').first();
    await expect(cover).toHaveAttribute('loading', 'lazy');
    await expect(cover).toHaveAttribute('src', /size=\d+$/);
    const shown = await cover.evaluate((img: HTMLImageElement) => ({ width: img.clientWidth, ratio: window.devicePixelRatio, src: img.src }));
    const wanted = [128, 256, 512, 1024].find((s) => s >= shown.width * shown.ratio) ?? 1024;
    expect(shown.ratio).toBe(screens[screen].deviceScaleFactor);
    expect(Number(new URL(shown.src).searchParams.get('size'))).toBe(wanted);
    await expect.poll(() => cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await checkBothThemes(page, `player library (${screen}, ${lang})`, `player-library-${screen}`, { fullPage: false });

    // the mini player's title leads back to the queue with the song's details
    await mini.locator('[data-test=mini-link]').click();
    await expect(page.getByRole('tab', { name: m.tab.queue })).toHaveAttribute('aria-selected', 'true');
    await expect(page.locator('[data-test=current-title]')).toHaveText('Red Song 1');
    await page.getByRole('tab', { name: m.tab.library }).click();

    // tap a song in an album: it is added and plays
    await page.getByRole('link', { name: 'Purple Album' }).click();
    const purple = page.getByRole('button', { name: fill(m.playSong, { title: 'Purple Song' }), exact: true });
    if (touch) await purple.tap();
    else await purple.click();
    await expect.poll(currentTitle).toBe('Purple Song');
    expect(playlist()).toEqual([...before, 'Purple Song']);
    await expect(mini.locator('[data-test=mini-title]')).toHaveText('Purple Song');

    // add the song to a new stored playlist, open that playlist, play it
    const name = `Mix ${screen} ${theme}`;
    await page.getByRole('button', { name: fill(m.addSongToPlaylist, { title: 'Purple Song' }) }).click();
    const picker = page.locator('[data-test=playlist-picker]');
    await expect(picker).toBeVisible();
    await picker.getByLabel(m.newPlaylist).fill(name);
    await picker.getByRole('button', { name: m.addToNew, exact: true }).click();
    await expect(picker).toHaveCount(0);
    await expect.poll(() => titlesOf(mpd.mpc('playlist', '-f', '%title%', name))).toEqual(['Purple Song']);
    await page.getByRole('tab', { name: m.tab.playlists }).click();
    await page.getByRole('link', { name }).click();
    await expect(page.getByRole('heading', { level: 2, name })).toBeVisible();
    await expect(page.getByRole('button', { name: fill(m.playSong, { title: 'Purple Song' }), exact: true })).toBeVisible();
    await page.getByRole('button', { name: m.replaceWithPlaylist, exact: true }).click();
    await expect.poll(playlist).toEqual(['Purple Song']);
    await expect.poll(currentTitle).toBe('Purple Song');
    await context.close();
  });
}

test('on a phone, a song dragged to the bottom edge of a long queue scrolls the page on and lands further down', async ({ browser, server, user, mpd }) => {
  for (let i = 0; i < 4; i++) mpd.mpc('add', '/');
  const context = await openBrowser(browser, server.url, user, 'phone', 'light', 'gb');
  const page = await context.newPage();
  await page.goto('/app/player');
  const rows = page.locator('[data-test=queue] > li');
  await expect(rows).toHaveCount(Number(mpd.mpc('playlist').trim().split('\n').length));
  await page.locator('#queue-heading').evaluate((h) => h.scrollIntoView({ block: 'start' }));
  const id = (await rows.first().getAttribute('data-id'))!;
  const visible = await rows.evaluateAll((lis) => lis.filter((li) => li.getBoundingClientRect().bottom <= window.innerHeight).length);
  const grip = (await rows.first().locator('[data-test=queue-grip]').boundingBox())!;
  const bar = (await page.locator('[data-test=mini-player]').boundingBox())!;
  const x = grip.x + grip.width / 2;
  const scrolled = await page.evaluate(() => window.scrollY);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y: grip.y + grip.height / 2 }] });
  for (const y of [300, 500, bar.y - 10]) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y }] });
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(scrolled + 600);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  const position = async () => Number(/Pos: (\d+)/.exec(await mpd.command(`playlistid ${id}`))?.[1]);
  await expect.poll(position).toBeGreaterThan(visible + 5);
  expect(await rows.evaluateAll((lis, songId) => lis.findIndex((li) => li.getAttribute('data-id') === songId), id)).toBe(await position());
  await context.close();
});

// A drop moves the dragged song by its id, so a queue changed during the drag (here by
// `mpc`) still moves that song and no other.
test('a song dragged while the queue changes elsewhere is the one that moves', async ({ browser, server, user, mpd }) => {
  const context = await openBrowser(browser, server.url, user, 'desktop', 'light', 'gb');
  const page = await context.newPage();
  await page.goto('/app/player');
  await expect(queueTitles(page)).toHaveText(['Blue Song 1', 'Blue Song 2', 'Red Song 1', 'Red Song 2']);
  await page.locator('#queue-heading').evaluate((h) => h.scrollIntoView({ block: 'start' }));
  const rows = page.locator('[data-test=queue] > li');
  const grip = (await rows.nth(2).locator('[data-test=queue-grip]').boundingBox())!;
  const top = (await rows.nth(0).boundingBox())!;
  await page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2);
  await page.mouse.down();
  await page.mouse.move(grip.x + grip.width / 2, top.y + top.height * 0.25, { steps: 8 });
  mpd.mpc('del', '1');
  await expect(queueTitles(page)).toHaveCount(3);
  await page.mouse.up();
  await expect.poll(() => titlesOf(mpd.mpc('playlist', '-f', '%title%'))).toEqual(['Red Song 1', 'Blue Song 2', 'Red Song 2']);
  await expect(queueTitles(page)).toHaveText(['Red Song 1', 'Blue Song 2', 'Red Song 2']);
  await context.close();
});
