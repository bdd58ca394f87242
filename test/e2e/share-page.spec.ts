// The owner's share page and list: inline edits, description with preview, deleting
// a file and the share, live search and paging, ZIP size indicator.
import { pngImage } from './helpers.js';
import { expect, test } from './fixtures.js';

test('the owner edits a share in place and deletes a file and the share', async ({ userPage: page, api, user }) => {
  const id = await api.createShare(user.token, { name: 'Draft', maxViews: 5 });
  await api.addFiles(user.token, id, [
    { name: 'a.png', content: await pngImage(), type: 'image/png' },
    { name: 'b <img src=x onerror=alert(1)>.txt', content: 'text\n', type: 'text/plain' },
  ]);
  await page.goto(`/app/upload/${id}`);
  await expect(page.locator('[data-test=share-title]')).toHaveText('Draft');
  // A file name is text, never markup.
  await expect(page.getByText('b <img src=x onerror=alert(1)>.txt')).toBeVisible();

  await page.getByRole('button', { name: 'Edit Name' }).click();
  await page.locator('#edit-name').fill('Final version');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.locator('[data-test=share-title]')).toHaveText('Final version');

  await page.getByRole('button', { name: 'Edit Maximum views' }).click();
  await page.locator('#edit-maxviews').fill('12');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.locator('[data-test=notice]')).toBeVisible();
  expect((await api.shareDetail(user.token, id)).publishInfo).toBeNull();

  await page.getByRole('button', { name: 'Edit Password' }).click();
  await page.locator('#edit-password').fill('pw1');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('set', { exact: true })).toBeVisible();
  expect((await api.shareDetail(user.token, id)).password).toBe(true);

  // Description with preview.
  await page.getByRole('region', { name: 'Description' }).getByRole('button', { name: 'Edit' }).click();
  await page.locator('#edit-description').fill('## Notes\n\n*Read* this. <b>raw</b>');
  await page.getByRole('tab', { name: 'Preview' }).click();
  await expect(page.getByRole('region', { name: 'Preview' }).locator('em')).toHaveText('Read');
  await expect(page.getByRole('region', { name: 'Preview' })).toContainText('<b>raw</b>');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { name: 'Notes' })).toBeVisible();

  // ZIP indicator and deleting a file.
  await expect(page.locator('[data-test=zip-size]')).toContainText('ZIP:');
  const file = page.locator('li[data-file="a.png"]');
  await file.getByRole('button', { name: 'Delete' }).click();
  await file.locator('[data-test=confirm-yes]').click();
  await expect(page.locator('li[data-file="a.png"]')).toHaveCount(0);
  expect((await api.shareDetail(user.token, id)).files.map((f) => f.filename)).toEqual(['b <img src=x onerror=alert(1)>.txt']);

  // Views: cards and zoom.
  await page.locator('[data-test=view-cards]').click();
  await expect(page.locator('[data-test=file-cards] li')).toHaveCount(1);
  await page.locator('[data-test=view-zoom]').click();
  await expect(page.locator('[data-test=file-zoom] iframe[sandbox]')).toBeVisible();

  await page.getByRole('button', { name: 'Delete share' }).click();
  await page.locator('[data-test=confirm-yes]').click();
  await expect(page).toHaveURL(/\/app\/uploads$/);
  expect(await api.searchShares(user.token)).toEqual([]);
});

test('the share list searches as you type and pages', async ({ userPage: page, api, user }) => {
  for (let i = 1; i <= 27; i++) await api.createShare(user.token, { name: `Report ${String(i).padStart(2, '0')}` });
  await api.createShare(user.token, { name: 'Holiday' });
  await page.goto('/app/uploads');
  await expect(page.locator('[data-test=share-table] tbody tr')).toHaveCount(25);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(page.locator('[data-test=share-table] tbody tr')).toHaveCount(3);
  await page.locator('[data-test=share-search]').fill('Holi');
  await expect(page.locator('[data-test=share-table] tbody tr')).toHaveCount(1);
  await expect(page.locator('[data-test=share-table]')).toContainText('Holiday');
  await page.locator('[data-test=share-search]').fill('nothing like this');
  await expect(page.getByText('No share matches the search.')).toBeVisible();
});
