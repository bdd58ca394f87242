// A guest on a phone-sized screen uploads through an alias link; the owner and a
// member see the share with the alias name, a non-member does not. Unknown aliases
// get a friendly page.
import { randomFile, sha256 } from './helpers.js';
import { expect, test } from './fixtures.js';

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

test('a guest uploads through an alias page on a phone', async ({ browser, api, user, server }) => {
  const member = await api.createAccount();
  const outsider = await api.createAccount();
  const memberId = member.auth.id;
  const aliasId = await api.createAlias(user.token, { name: 'Tax documents', members: [memberId] });

  const guest = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, baseURL: server.url });
  const page = await guest.newPage();
  await page.goto(`/app/share/${aliasId}`);
  await expect(page.locator('[data-test=guest-title]')).toHaveText('Send files to “Tax documents”');
  // Nothing sticks out sideways on a phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  const a = randomFile(300 * 1024);
  const b = Buffer.from('receipt 2024\n');
  await page.locator('[data-test=file-input]').setInputFiles([
    { name: 'scan.pdf', mimeType: 'application/pdf', buffer: a },
    { name: 'notes.txt', mimeType: 'text/plain', buffer: b },
  ]);
  await page.getByLabel(/^Message/).fill('Here are the **papers**.');
  await page.screenshot({ path: 'test-results/screenshots/guest-phone-light.png', fullPage: true });
  await page.locator('[data-test=guest-send]').tap();
  // the guest learns nothing of the owner's account, not even the login
  await expect(page.locator('[data-test=guest-done]')).toHaveText('Sent. Your 2 files have arrived.', { timeout: 30_000 });
  await expect(page.locator('body')).not.toContainText(user.login);
  await expect(page.locator('[data-test=total-progress]')).toHaveAttribute('aria-valuenow', '100');
  await page.screenshot({ path: 'test-results/screenshots/guest-phone-done-light.png', fullPage: true });

  // "Send more" goes back to an empty form: nothing to send yet.
  await page.locator('[data-test=guest-more]').tap();
  await expect(page.locator('[data-test=pick-files]')).toBeVisible();
  await expect(page.locator('[data-test=guest-send]')).toHaveCount(0);
  await guest.close();

  // The owner and the member see the share with the alias name; an outsider does not.
  const owned = await api.searchShares(user.token);
  expect(owned.map((s) => s.aliasName)).toEqual(['Tax documents']);
  const detail = await api.shareDetail(user.token, owned[0]!.id);
  const files = new Map(detail.files.map((f) => [f.filename, f]));
  expect(files.get('scan.pdf')?.storedSize).toBe(a.length);
  expect(files.get('notes.txt')?.storedSize).toBe(b.length);
  expect((await api.searchShares(member.token)).map((s) => s.id)).toEqual([owned[0]!.id]);
  expect(await api.searchShares(outsider.token)).toEqual([]);
  const scan = await fetch(`${server.url}/api/v2/sec/share/${owned[0]!.id}/file/${files.get('scan.pdf')!.id}`, {
    headers: { 'Service-Auth': user.token },
  });
  expect(sha256(new Uint8Array(await scan.arrayBuffer()))).toBe(sha256(a));
});

test('the owner sees the guest upload in the share list with the alias name', async ({ userPage: page, api, user, server }) => {
  const aliasId = await api.createAlias(user.token, { name: 'Inbox' });
  const res = await fetch(`${server.url}/api/v2/alias/upload/new`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Service-Alias': aliasId },
    body: JSON.stringify({ validity: 0, maxViews: 10, name: null, description: null, password: null }),
  });
  expect(res.status).toBe(200);
  await page.goto('/app/uploads');
  const table = page.locator('[data-test=share-table]');
  await expect(table).toBeVisible();
  // On a phone the alias column is hidden; the share page names the alias.
  await table.getByRole('link').first().click();
  await expect(page.getByText('Uploaded through the upload link “Inbox”.')).toBeVisible();
});

test('an unknown alias gets a friendly page', async ({ page }) => {
  await page.goto('/app/share/no-such-alias');
  await expect(page.locator('[data-test=guest-gone]')).toContainText('Upload link not available');
});
