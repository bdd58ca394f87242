// The web client under its Content-Security-Policy (server/http/static-app.ts): the
// owner's share page (QR code, previews of an image, a PDF, plain and other text, a
// Markdown description) and the recipient's page run without one policy violation,
// in the page or in the preview frames, and the page refuses to be framed.
import type { BrowserContext } from '@playwright/test';
import { startEndpoint } from '../support/http-endpoint.js';
import { pngImage } from './helpers.js';
import { expect, test } from './fixtures.js';

/** A one-page PDF. */
const pdf = `%PDF-1.4
1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj
2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj
3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >> endobj
trailer << /Root 1 0 R >>
%%EOF
`;

/** Collects the policy violations of every page and frame of `context`, from the event and from the console. */
async function recordViolations(context: BrowserContext): Promise<string[]> {
  const seen: string[] = [];
  await context.exposeBinding('reportCspViolation', ({ frame }, text: string) => {
    seen.push(`${frame.url()}: ${text}`);
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { reportCspViolation(t: string): void }).reportCspViolation(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  const watch = (p: import('@playwright/test').Page) =>
    p.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) seen.push(`${p.url()}: ${m.text()}`);
    });
  context.pages().forEach(watch);
  context.on('page', watch);
  return seen;
}

test('the owner and the recipient pages run under the policy without violations', async ({ userPage: page, context, browser, api, user, server }) => {
  const seen = await recordViolations(context);
  const id = await api.createShare(user.token, {
    name: 'Policy',
    description: '## Files\n\n| left | right |\n| :--- | ---: |\n| a | b |\n\n*all* here',
  });
  await api.addFiles(user.token, id, [
    { name: 'photo.png', content: await pngImage(), type: 'image/png' },
    { name: 'paper.pdf', content: pdf, type: 'application/pdf' },
    { name: 'notes.txt', content: 'plain text\n', type: 'text/plain' },
    { name: 'data.json', content: '{"a": 1}\n', type: 'application/json' },
  ]);
  const pid = await api.publish(user.token, id);

  const response = await page.goto(`/app/upload/${id}`);
  expect(response?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
  await expect(page.locator('[data-test=share-title]')).toHaveText('Policy');
  await page.getByRole('tab', { name: 'Share link' }).click();
  await expect(page.locator('[data-test=qr]').first()).toBeVisible();
  await page.getByRole('tab', { name: 'Details' }).click();
  for (const name of ['photo.png', 'paper.pdf', 'notes.txt', 'data.json']) {
    await page.locator(`li[data-file="${name}"] [data-test=toggle-preview]`).click();
    await expect(page.locator(`li[data-file="${name}"] [data-test=preview]`)).toBeVisible();
  }
  await expect(page.locator('li[data-file="data.json"] pre')).toContainText('"a": 1');
  await expect(page.locator('li[data-file="photo.png"] [data-test=preview] img')).toHaveJSProperty('complete', true);

  const recipient = await browser.newContext();
  const seenByRecipient = await recordViolations(recipient);
  const rp = await recipient.newPage();
  await rp.goto(`${server.url}/app/open/${pid}`);
  await expect(rp.locator('[data-test=open-title]')).toHaveText('Policy');
  await rp.locator('li[data-file="photo.png"] [data-test=file-menu]').click();
  await rp.locator('li[data-file="photo.png"] [data-test=toggle-preview]').click();
  await expect.poll(() => rp.locator('li[data-file="photo.png"] [data-test=preview] img').evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(96);
  await recipient.close();

  // let late reports (frames, images) arrive
  await page.waitForTimeout(500);
  expect([...seen, ...seenByRecipient]).toEqual([]);
});

test('a page of another origin cannot frame the web client', async ({ page, server }) => {
  // another port of the same host: another origin, the same site
  const attacker = await startEndpoint((_req, res) => {
    res.setHeader('Content-Type', 'text/html');
    // the API answer has no frame-ancestors: it shows that framing as such works here
    res.end(`<!doctype html><title>x</title><iframe src="${server.url}/app/login"></iframe><iframe src="${server.url}/api/v2/open/info/version"></iframe>`);
  });
  try {
    await page.goto(attacker.url);
    await expect.poll(() => page.frames().some((f) => f.url().endsWith('/api/v2/open/info/version'))).toBe(true);
    // the refused frame shows the browser's error page instead of the app
    await expect.poll(() => page.frames().filter((f) => f.url().startsWith('chrome-error:')).length).toBe(1);
    expect(page.frames().some((f) => f.url().includes('/app/login'))).toBe(false);
  } finally {
    await attacker.stop();
  }
});
