// Upload links (aliases) through the UI: create with a member, copy the guest link, see its QR code,
// edit (name, enabled, id), the member's read-only view, delete.
import { expect, signInContext, test } from './fixtures.js';
import { screenshotsLightDark } from './page-checks.js';

test('an owner creates, edits and deletes an alias; a member sees it read-only', async ({ userPage: page, api, server, browser, user }) => {
  const member = await api.createAccount();
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);

  await page.goto('/app/alias');
  await expect(page.getByRole('heading', { level: 1, name: 'Upload links' })).toBeVisible();
  await expect(page.getByText('You have no upload links yet.')).toBeVisible();
  await page.getByRole('link', { name: 'New upload link' }).first().click();
  await expect(page).toHaveURL(/\/app\/alias\/new$/);
  await page.getByText('Advanced', { exact: true }).click();
  await expect(page.locator('#alias-id-warning')).toContainText('secret part of the upload link');
  await page.getByLabel('Name', { exact: true }).fill('Holiday uploads');
  await page.getByLabel('Uploads stay for').selectOption({ label: '2 days' });
  await page.getByLabel('Find accounts by login').fill(member.login);
  await page.getByRole('button', { name: `Add ${member.login} as member` }).click();
  await expect(page.getByRole('button', { name: `Remove ${member.login}` })).toBeVisible();
  await page.getByRole('button', { name: 'Create upload link' }).click();

  await expect(page.getByRole('status').filter({ hasText: 'The upload link was created.' })).toBeVisible();
  await expect(page).toHaveURL(/\/app\/alias\/(?!new)[^/]+$/);
  const id = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
  const link = page.locator('[data-test=alias-link]');
  await expect(link).toHaveValue(`${server.url}/app/share/${id}`);
  await expect(page.locator('[data-test=qr]')).toBeVisible();
  await page.locator('[data-test=copy]').click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${server.url}/app/share/${id}`);

  const created = await server.request<{ name: string; validity: number; enabled: boolean; members: { items: { login: string }[] } }>(
    'GET',
    `/api/v2/sec/alias/${id}`,
    undefined,
    { token: user.token },
  );
  expect(created.body).toMatchObject({ name: 'Holiday uploads', validity: 2 * 86_400_000, enabled: true, members: { items: [{ login: member.login }] } });
  await screenshotsLightDark(page, 'alias-edit', { axe: true });

  // edit: name, enabled, and a new id (the link changes with it)
  await page.getByLabel('Name', { exact: true }).fill('Holiday uploads 2026');
  await page.getByLabel('Enabled').uncheck();
  const newId = `holiday-${Date.now().toString(36)}`;
  // "Advanced" stays open as the owner left it
  await page.getByLabel('Id', { exact: true }).fill(newId);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The upload link was saved.' })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/app/alias/${newId}$`));
  await expect(link).toHaveValue(`${server.url}/app/share/${newId}`);
  await expect(page.getByText('The upload link is disabled')).toBeVisible();
  const changed = await server.request<{ name: string; enabled: boolean }>('GET', `/api/v2/sec/alias/${newId}`, undefined, { token: user.token });
  expect(changed.body).toMatchObject({ name: 'Holiday uploads 2026', enabled: false });

  // the member sees the alias, read-only
  const memberContext = await browser.newContext({ baseURL: server.url });
  await signInContext(memberContext, server.url, member);
  const memberPage = await memberContext.newPage();
  await memberPage.goto(`/app/alias/${newId}`);
  await expect(memberPage.locator('[data-test=alias-readonly]')).toContainText(`belongs to ${user.login}`);
  await expect(memberPage.getByRole('button', { name: 'Save' })).toHaveCount(0);
  await expect(memberPage.getByRole('button', { name: 'Delete upload link' })).toHaveCount(0);
  await screenshotsLightDark(memberPage, 'alias-member-view', { axe: true });
  await memberContext.close();

  // the list, with search
  await page.getByRole('link', { name: 'All upload links' }).click();
  await page.getByLabel('Search by name').fill('Holiday');
  await expect(page.locator('[data-test=alias-table] tbody tr')).toHaveCount(1);
  await expect(page.getByRole('link', { name: 'Holiday uploads 2026' })).toBeVisible();
  await screenshotsLightDark(page, 'aliases', { axe: true });

  // delete, after confirming
  await page.getByRole('link', { name: 'Holiday uploads 2026' }).click();
  await page.getByRole('button', { name: 'Delete upload link' }).click();
  await page.locator('[data-test=confirm-yes]').click();
  await expect(page).toHaveURL(/\/app\/alias$/);
  await expect(page.getByText('You have no upload links yet.')).toBeVisible();
  const gone = await server.request('GET', `/api/v2/sec/alias/${newId}`, undefined, { token: user.token });
  expect(gone.status).toBe(404);
});
