// Copy buttons work without the Clipboard API: where `navigator.clipboard` is missing
// (deleted by an init script, and for real on a plain-HTTP LAN address such as
// http://192.168.x.y, which is no secure context) the text still reaches the
// clipboard; where copying is refused altogether, the text is shown selected with the
// key to press.
import { networkInterfaces } from 'node:os';
import type { BrowserContext, Page } from '@playwright/test';
import { test as base, expect, signInContext, type Account, type Api } from './fixtures.js';

// listening on every interface, so the page can be opened at the machine's LAN address too
base.use({ serverConfig: { bind: { address: '0.0.0.0', port: 0 } } });
const test = base.extend({
  baseURL: async ({ server }, use) => {
    await use(server.url.replace('//0.0.0.0:', '//127.0.0.1:'));
  },
});

const noClipboardApi = () => {
  delete (Navigator.prototype as { clipboard?: unknown }).clipboard;
};

/** A published share of `owner`; returns its id. */
async function publishedShare(api: Api, owner: Account): Promise<string> {
  const id = await api.createShare(owner.token, { name: 'Copy me' });
  await api.publish(owner.token, id);
  return id;
}

/** What the context's clipboard holds, read by a page on the loopback origin (a secure context). */
async function clipboardOf(context: BrowserContext, origin: string): Promise<string> {
  const reader = await context.newPage();
  await reader.goto(`${origin}/app/login`);
  const text = await reader.evaluate(() => navigator.clipboard.readText());
  await reader.close();
  return text;
}

async function openLinkTab(page: Page, shareId: string): Promise<string> {
  await page.goto(`/app/upload/${shareId}`);
  await page.locator('[data-test=tab-link]').click();
  const link = page.locator('[data-test=share-link]');
  await expect(link).toHaveValue(/\/app\/open\//);
  return link.inputValue();
}

test('the Copy button copies when navigator.clipboard is undefined', async ({ userPage: page, api, user, baseURL }) => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.addInitScript(noClipboardApi);
  const link = await openLinkTab(page, await publishedShare(api, user));
  expect(await page.evaluate(() => typeof navigator.clipboard)).toBe('undefined');

  await page.locator('[data-test=ready-panel] [data-test=copy]').click();
  await expect(page.locator('[data-test=ready-panel] [data-test=copy] .flag')).toHaveText('✓');
  await expect(page.locator('[data-test=copy-manual]')).toHaveCount(0);
  expect(await clipboardOf(page.context(), baseURL!)).toBe(link);
});

test('on a plain-HTTP LAN address, where browsers give no Clipboard API, the Copy button still copies', async ({ browser, api, user, server, baseURL }) => {
  // a non-loopback address of this machine (the server answers on it: it is one of its own names)
  const address = Object.values(networkInterfaces())
    .flat()
    .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
  if (!address) throw new Error('this test needs a non-loopback IPv4 address on the machine');
  const lanOrigin = `http://${address}:${new URL(server.url).port}`;
  const context = await browser.newContext({ baseURL: lanOrigin });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL! });
  await signInContext(context, lanOrigin, user);
  const page = await context.newPage();
  const link = await openLinkTab(page, await publishedShare(api, user));
  // opened at the LAN address, the links keep it
  expect(link.startsWith(`${lanOrigin}/app/open/`)).toBe(true);
  expect(await page.evaluate(() => [window.isSecureContext, typeof navigator.clipboard])).toEqual([false, 'undefined']);

  await page.locator('[data-test=ready-panel] [data-test=copy]').click();
  await expect(page.locator('[data-test=ready-panel] [data-test=copy] .flag')).toHaveText('✓');
  expect(await clipboardOf(context, baseURL!)).toBe(link);
  await context.close();
});

test('when every way of copying is refused, the text is shown selected with the key to press', async ({ userPage: page, api, user }) => {
  await page.addInitScript(noClipboardApi);
  await page.addInitScript(() => {
    document.execCommand = () => false;
  });
  const link = await openLinkTab(page, await publishedShare(api, user));

  await page.locator('[data-test=ready-panel] [data-test=copy]').click();
  const manual = page.locator('[data-test=copy-manual]');
  await expect(manual).toContainText('Press Ctrl+C / long-press to copy.');
  const input = manual.locator('input');
  await expect(input).toBeFocused();
  await expect(input).toHaveValue(link);
  expect(await input.evaluate((el: HTMLInputElement) => [el.selectionStart, el.selectionEnd])).toEqual([0, link.length]);
  // copying by hand is noticed, and the box closes
  await page.keyboard.press('Control+C');
  await expect(manual).toHaveCount(0);
  await expect(page.locator('[data-test=ready-panel] [data-test=copy] .flag')).toHaveText('✓');
});
