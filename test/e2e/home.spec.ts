// The home page and the share list, from a fresh browser that signs in: recent shares
// with the right state each (published, not published, expired, views used up), a
// guest upload through an upload link shown as new until marked seen, "New upload link"
// creating one in one more step, and files dropped anywhere on the page starting a share
// whose bytes reach the server; the header's badge asks nothing the home page already
// asked, nor on a change of the query. On a phone and a desktop, in English and German,
// checked by axe in light and dark where the screenshots of home and the share list are
// taken for docs/screens/ (`npm run screens`).
import type { Browser, Page } from '@playwright/test';
import { randomFile, sha256 } from './helpers.js';
import { checkBothThemes } from './page-checks.js';
import { expect, test, type Account, type Api } from './fixtures.js';
import type { TestServer } from '../support/server.js';
import { combos } from './combos.js';

// The player points at a port where no daemon listens: its block stays hidden.
test.use({ serverConfig: { player: { enabled: true, connections: { default: { host: '127.0.0.1', port: 1, timeout: '1 second' } } } } });

const DAY = 86_400_000;

const words = {
  gb: {
    welcome: (login: string) => `Welcome, ${login}`,
    views: (n: number, max: number) => `${n}/${max} views`,
    uploadLinks: 'Upload links',
    uploadLinkName: 'Name your guests see',
    created: 'The upload link was created.',
    shares: 'Your shares',
    linkColumn: 'Upload link',
  },
  de: {
    welcome: (login: string) => `Willkommen, ${login}`,
    views: (n: number, max: number) => `${n}/${max} Aufrufe`,
    uploadLinks: 'Upload-Links',
    uploadLinkName: 'Name, den deine Gäste sehen',
    created: 'Der Upload-Link wurde erstellt.',
    shares: 'Eigene Freigaben',
    linkColumn: 'Upload-Link',
  },
} as const;

const screens = {
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  desktop: { viewport: { width: 1280, height: 800 } },
} as const;

interface Seeded {
  published: string;
  draft: string;
  expired: string;
  usedUp: string;
  guest: string;
}

/** A recipient's view: a request without cookie or session counts one. */
const view = async (server: TestServer, pid: string): Promise<void> => {
  expect((await server.request('GET', `/api/v2/open/share/${pid}`)).status).toBe(200);
};

/** One share in each state, and a guest upload through an upload link. */
async function seed(api: Api, server: TestServer, owner: Account): Promise<Seeded> {
  const expired = await api.createShare(owner.token, { name: 'Old photos', validity: 1500, maxViews: 5 });
  await api.publish(owner.token, expired);
  await api.addFiles(owner.token, expired, [{ name: 'old.txt', content: 'old' }]);
  const published = await api.createShare(owner.token, { name: 'Holiday photos', validity: 7 * DAY, maxViews: 5 });
  await api.addFiles(owner.token, published, [{ name: 'beach.txt', content: 'sand' }]);
  const pid = await api.publish(owner.token, published);
  await view(server, pid);
  await view(server, pid);
  const draft = await api.createShare(owner.token, { name: 'Draft notes', maxViews: 3 });
  await api.addFiles(owner.token, draft, [{ name: 'notes.md', content: '# Notes' }, { name: 'todo.md', content: '- [ ] pack' }]);
  const usedUp = await api.createShare(owner.token, { name: 'One-time secret', maxViews: 1 });
  await api.addFiles(owner.token, usedUp, [{ name: 'secret.txt', content: 'the code is 1234' }]);
  await view(server, await api.publish(owner.token, usedUp));

  const aliasId = await api.createAlias(owner.token, { name: 'Inbox' });
  const form = new FormData();
  form.append('file', new Blob(['from a guest']), 'guest.txt');
  const res = await fetch(`${server.url}/api/v2/alias/upload`, { method: 'POST', headers: { 'Service-Alias': aliasId }, body: form });
  const guest = ((await res.json()) as { success: boolean; id: string }).id;

  // the short publication has ended before the browser looks
  await expect
    .poll(async () => (await server.request<{ items: { id: string; published: boolean | null }[] }>('GET', '/api/v2/sec/share/search?q=Old', undefined, { token: owner.token })).body.items[0]?.published)
    .toBe(false);
  return { published, draft, expired, usedUp, guest };
}

/** A new browser with no session, in the given screen, theme and language; signed in through the form. */
async function freshBrowser(browser: Browser, server: TestServer, owner: Account, screen: keyof typeof screens, theme: 'light' | 'dark', lang: string): Promise<Page> {
  // the theme follows the colour scheme (no stored choice), so checkpoints can switch it
  const context = await browser.newContext({ baseURL: server.url, ...screens[screen], colorScheme: theme });
  await context.addInitScript((l) => {
    try {
      if (localStorage.getItem('language') === null) localStorage.setItem('language', l);
    } catch {
      // sandboxed documents (uploaded files) have no storage
    }
  }, lang);
  const page = await context.newPage();
  await page.goto('/app/login');
  await page.locator('#login-name').fill(owner.login);
  await page.locator('#login-password').fill(owner.password);
  await page.locator('#login-password').press('Enter');
  await expect(page).toHaveURL(/\/app\/home$/);
  return page;
}

const stateOf = (page: Page, where: string, id: string) => page.locator(`${where} [data-id="${id}"] [data-test=share-state]`);

for (const { screen, theme, lang } of combos) {
  test(`home and share list tell each share's state, show new guest uploads, make upload links and start shares from a drop (${screen}, ${theme}, ${lang})`, async ({
    browser,
    api,
    server,
  }) => {
    const w = words[lang];
    const owner = await api.createAccount({ login: `ana-${screen}-${theme}-${lang}` });
    const s = await seed(api, server, owner);
    const page = await freshBrowser(browser, server, owner, screen, theme, lang);
    await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /dark/ : /^(?!.*dark).*$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(w.welcome(owner.login));
    await expect(page.locator('a[href="/app/alias"]').first()).toHaveText(w.uploadLinks);

    // recent shares, each in its state with views and dates
    const recent = '[data-test=recent-shares]';
    await expect(stateOf(page, recent, s.published)).toHaveAttribute('data-state', 'published');
    await expect(stateOf(page, recent, s.draft)).toHaveAttribute('data-state', 'unpublished');
    await expect(stateOf(page, recent, s.expired)).toHaveAttribute('data-state', 'expired');
    await expect(stateOf(page, recent, s.usedUp)).toHaveAttribute('data-state', 'viewsUsedUp');
    await expect(page.locator(`${recent} [data-id="${s.published}"] [data-test=share-views]`)).toHaveText(w.views(2, 5));
    await expect(page.locator(`${recent} [data-id="${s.usedUp}"] [data-test=share-views]`)).toHaveText(w.views(1, 1));
    await expect(page.locator(`${recent} [data-id="${s.published}"] [data-test=share-until]`)).toBeVisible();
    await expect(page.locator(`${recent} [data-id="${s.draft}"] [data-test=share-until]`)).toHaveCount(0);

    // the guest upload is new, not among the recent shares
    const fresh = page.locator('[data-test=new-guest-uploads] li');
    await expect(fresh).toHaveCount(1);
    await expect(fresh).toContainText('Inbox');
    await expect(page.locator(`${recent} [data-id="${s.guest}"]`)).toHaveCount(0);
    // the player's daemon does not answer: no player block
    await expect(page.locator('[data-test=home-drop]')).toBeVisible();
    await expect(page.locator('[data-test=home-now-playing]')).toHaveCount(0);

    await checkBothThemes(page, `home (${screen}, ${lang})`, `home-${screen}`);

    // marked seen, it moves to the recent shares and stays seen after a reload
    await page.locator('[data-test=mark-seen]').click();
    await expect(page.locator('[data-test=no-new-guest-uploads]')).toBeVisible();
    await expect(page.locator(`${recent} [data-id="${s.guest}"]`)).toBeVisible();
    await page.reload();
    await expect(page.locator(`${recent} [data-id="${s.guest}"]`)).toBeVisible();
    await expect(page.locator('[data-test=new-guest-uploads]')).toHaveCount(0);

    // a new upload link in one more step: name, create; the link is shown at once
    await page.locator('[data-test=new-upload-link]').click();
    await page.getByLabel(w.uploadLinkName).fill('Family pictures');
    await page.locator('[data-test=quick-upload-link-create]').click();
    await expect(page.getByRole('status').filter({ hasText: w.created })).toBeVisible();
    const link = await page.locator('[data-test=alias-link]').inputValue();
    const aliasId = decodeURIComponent(link.split('/app/share/')[1]!);
    const aliases = await server.request<{ items: { id: string; name: string; enabled: boolean }[] }>('GET', '/api/v2/sec/alias?q=Family', undefined, {
      token: owner.token,
    });
    expect(aliases.body.items).toEqual([expect.objectContaining({ id: aliasId, name: 'Family pictures', enabled: true })]);
    await expect(page.locator('[data-test=qr]')).toBeVisible();
    await checkBothThemes(page, `home with a new upload link (${screen}, ${lang})`, `home-upload-link-${screen}`);

    // the share list: the same states, views and dates
    await page.goto('/app/uploads');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(w.shares);
    const row = (id: string) => page.locator('[data-test=share-table] tbody tr').filter({ has: page.locator(`a[href="/app/upload/${id}"]`) });
    await expect(row(s.published).locator('[data-test=share-state]')).toHaveAttribute('data-state', 'published');
    await expect(row(s.draft).locator('[data-test=share-state]')).toHaveAttribute('data-state', 'unpublished');
    await expect(row(s.expired).locator('[data-test=share-state]')).toHaveAttribute('data-state', 'expired');
    await expect(row(s.usedUp).locator('[data-test=share-state]')).toHaveAttribute('data-state', 'viewsUsedUp');
    await expect(row(s.published).locator('[data-test=share-views]')).toHaveText(w.views(2, 5));
    await expect(row(s.draft).locator('[data-test=share-views]')).toHaveText(w.views(0, 3));
    await expect(row(s.expired).locator('[data-test=share-until]')).toBeVisible();
    await expect(row(s.draft).locator('[data-test=share-until]')).toHaveCount(0);
    if (screen === 'desktop') await expect(page.locator('[data-test=share-table] th').nth(1)).toHaveText(w.linkColumn);
    await checkBothThemes(page, `share list (${screen}, ${lang})`, `shares-${screen}`);

    // files dropped anywhere on the home page (here: on the recent shares) start a share
    await page.goto('/app/home');
    const bytes = randomFile(200 * 1024);
    await expect(page.locator(recent)).toBeVisible();
    await page.locator(recent).evaluate((target, data) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(data)], 'dropped.bin', { type: 'application/octet-stream' }));
      for (const type of ['dragenter', 'dragover', 'drop']) target.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
    }, [...bytes]);
    await expect(page).toHaveURL(/\/app\/share$/);
    await expect(page.locator('[data-test=picked-files] li')).toHaveCount(1);
    await expect(page.locator('[data-test=picked-files] li')).toContainText('dropped.bin');
    await page.locator('[data-test=submit-share]').click();
    // the upload ends with the file's bytes on the server
    const uploadedFile = async (): Promise<{ share: string; file: string } | null> => {
      const [newest] = await api.searchShares(owner.token);
      const file = newest && (await api.shareDetail(owner.token, newest.id)).files.find((f) => f.filename === 'dropped.bin');
      return file && file.storedSize === bytes.length ? { share: newest.id, file: file.id } : null;
    };
    await expect.poll(uploadedFile, { timeout: 30_000 }).not.toBeNull();
    const { share, file } = (await uploadedFile())!;
    const res = await fetch(`${server.url}/api/v2/sec/share/${share}/file/${file}`, { headers: { 'Service-Auth': owner.token } });
    expect(sha256(new Uint8Array(await res.arrayBuffer()))).toBe(sha256(bytes));
    await page.context().close();
  });
}

test('"Choose files" on the home page starts a share with the chosen files', async ({ userPage: page }) => {
  await page.setViewportSize(screens.phone.viewport);
  await page.goto('/app/home');
  const chooser = page.waitForEvent('filechooser');
  await page.locator('[data-test=home-pick-files]').click();
  await (await chooser).setFiles([{ name: 'a.txt', mimeType: 'text/plain', buffer: Buffer.from('a') }, { name: 'b.txt', mimeType: 'text/plain', buffer: Buffer.from('b') }]);
  await expect(page).toHaveURL(/\/app\/share$/);
  await expect(page.locator('[data-test=picked-files] li')).toHaveText([/a\.txt/, /b\.txt/]);
  // the files were handed over once: leaving and coming back starts empty
  await page.locator('button[aria-controls=main-nav]').click();
  await page.locator('#main-nav a[href="/app/home"]').click();
  await expect(page.locator('[data-test=home-drop]')).toBeVisible();
  await page.locator('button[aria-controls=main-nav]').click();
  await page.locator('#main-nav a[href="/app/share"]').click();
  await expect(page.locator('[data-test=submit-share]')).toBeVisible();
  await expect(page.locator('[data-test=picked-files] li')).toHaveCount(0);
});

test('a guest upload opened from the share list is no longer new on the home page', async ({ userPage: page, api, user, server }) => {
  const aliasId = await api.createAlias(user.token, { name: 'Scans' });
  const upload = async (name: string): Promise<string> => {
    const form = new FormData();
    form.append('file', new Blob([name]), name);
    const res = await fetch(`${server.url}/api/v2/alias/upload`, { method: 'POST', headers: { 'Service-Alias': aliasId }, body: form });
    return ((await res.json()) as { id: string }).id;
  };
  const first = await upload('one.pdf');
  const second = await upload('two.pdf');
  const own = await api.createShare(user.token, { name: 'Mine' });

  await page.goto('/app/uploads');
  const row = (id: string) => page.locator('[data-test=share-table] tbody tr').filter({ has: page.locator(`a[href="/app/upload/${id}"]`) });
  await expect(row(first).locator('[data-test=new-guest-upload]')).toBeVisible();
  await expect(row(second).locator('[data-test=new-guest-upload]')).toBeVisible();
  await expect(row(own).locator('[data-test=new-guest-upload]')).toHaveCount(0);
  await row(first).getByRole('link').first().click();
  await expect(page).toHaveURL(new RegExp(`/app/upload/${first}$`));

  await page.goto('/app/home');
  await expect(page.locator('[data-test=new-guest-uploads] li')).toHaveCount(1);
  await expect(page.locator(`[data-test=new-guest-uploads] a[href="/app/upload/${second}"]`)).toBeVisible();
  await expect(page.locator(`[data-test=recent-shares] [data-id="${first}"]`)).toBeVisible();
});

// The header's badge takes the newest shares the home page fetched (one request on opening
// home) and does not ask again when only the address's query changes.
test('opening home asks for the newest shares once, and filtering the share list does not ask the badge again', async ({ userPage: page, api, user }) => {
  await api.createShare(user.token, { name: 'Counted' });
  await page.clock.install();
  let asked = 0;
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname === '/api/v2/sec/share/search' && url.search === '?q=&page=1&pageSize=50') asked++;
  });
  await page.goto('/app/home');
  await expect(page.locator('[data-test=recent-shares] li')).toHaveCount(1);
  expect(asked).toBe(1);

  await page.locator('#main-nav a[href="/app/uploads"]').click();
  await expect(page.locator('[data-test=share-table] tbody tr')).toHaveCount(1);
  // long past the badge's minimum gap between two looks
  await page.clock.fastForward(20_000);
  const filtered = page.waitForRequest((r) => r.url().includes('/api/v2/sec/share/search?q=Coun'));
  await page.locator('[data-test=share-search]').fill('Coun');
  await page.clock.fastForward(1000);
  await filtered;
  await expect(page).toHaveURL(/\?q=Coun$/);
  expect(asked).toBe(1);
});
