// Checks every page spec repeats: no serious or critical accessibility violations
// (axe-core), and full-page screenshots in light and dark under test-results/screenshots/.
import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { screenPath } from './screens.js';

/** Runs axe on the page (WCAG 2.x A/AA rules) and fails on any serious or critical violation. */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const report = bad.map((v) => `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.map((n) => n.target.join(' ')).join('\n  ')}`).join('\n');
  expect(bad, `accessibility violations on ${what}:\n${report}`).toEqual([]);
}

/** Clicks the theme button, opening the folded menu first on a phone-sized screen. */
async function toggleTheme(page: Page): Promise<void> {
  const toggle = page.locator('[data-test=theme-toggle]');
  const menu = page.locator('button[aria-controls=main-nav]');
  const folded = !(await toggle.isVisible());
  if (folded) await menu.click();
  await toggle.click();
  if (folded) await menu.click();
}

/** Whether the page currently shows the dark theme. */
const isDark = (page: Page): Promise<boolean> => page.evaluate(() => document.documentElement.classList.contains('dark'));

/**
 * Runs `each` in the page's current theme, then in the other, switching with `setDark`
 * (which waits until the page shows it), and switches back to where the page began.
 */
async function inBothThemes(page: Page, setDark: (dark: boolean) => Promise<void>, each: (theme: 'light' | 'dark') => Promise<void>): Promise<void> {
  const startDark = await isDark(page);
  for (const theme of startDark ? (['dark', 'light'] as const) : (['light', 'dark'] as const)) {
    await setDark(theme === 'dark');
    await each(theme);
  }
  await setDark(startDark);
}

/**
 * Writes `test-results/screenshots/<name>-light.png` and `-dark.png` (switching with
 * the theme button), checks accessibility in both themes when `axe` is set, and
 * leaves the page in the theme it had.
 */
export async function screenshotsLightDark(page: Page, name: string, opts: { axe?: boolean } = {}): Promise<void> {
  const byButton = async (dark: boolean): Promise<void> => {
    if ((await isDark(page)) === dark) return;
    await toggleTheme(page);
    await expect.poll(() => isDark(page)).toBe(dark);
  };
  await inBothThemes(page, byButton, async (theme) => {
    if (opts.axe) await expectAccessible(page, `${name} (${theme})`);
    await page.screenshot({ path: `test-results/screenshots/${name}-${theme}.png`, fullPage: true });
  });
}

/**
 * At a checkpoint of a journey: the page in light and in dark, each checked by axe and
 * shot to `screenPath(<name>-light|dark)`, switched by the browser's colour scheme (the
 * page follows it while the user has not chosen a theme); ends in the scheme it began in.
 * A journey thus runs once per screen and still meets both themes where it looks.
 */
export async function checkBothThemes(page: Page, what: string, name: string, opts: { fullPage?: boolean } = {}): Promise<void> {
  const byScheme = async (dark: boolean): Promise<void> => {
    await page.emulateMedia({ colorScheme: dark ? 'dark' : 'light' });
    await expect.poll(() => isDark(page)).toBe(dark);
  };
  await inBothThemes(page, byScheme, async (theme) => {
    await expectAccessible(page, `${what} (${theme})`);
    await page.screenshot({ path: screenPath(`${name}-${theme}`), fullPage: opts.fullPage ?? true });
  });
}
