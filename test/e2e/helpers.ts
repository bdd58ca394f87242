// Small helpers for the browser specs: test files, hashing, reading ZIPs, throttling, the session.
import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Download, Page } from '@playwright/test';
import sharp from 'sharp';
import yauzl from 'yauzl';

export const MiB = 1024 * 1024;

export const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** A small real PNG picture. */
export const pngImage = (width = 96, height = 64): Promise<Buffer> =>
  sharp({ create: { width, height, channels: 3, background: '#2f6fb5' } }).png().toBuffer();

/** Random bytes (incompressible, so transfers take real time). */
export const randomFile = (size: number): Buffer => randomBytes(size);

/** The bytes of a finished browser download. */
export const downloadedBytes = async (download: Download): Promise<Buffer> => {
  const path = await download.path();
  return readFile(path);
};

/** The entries of a ZIP: name → bytes. */
export const unzip = (zip: Buffer): Promise<Map<string, Buffer>> =>
  new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (err, file) => {
      if (err || !file) return reject(err ?? new Error('no zip'));
      const out = new Map<string, Buffer>();
      file.on('entry', (entry: yauzl.Entry) => {
        file.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e ?? new Error('no stream'));
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            out.set(entry.fileName, Buffer.concat(chunks));
            file.readEntry();
          });
          stream.on('error', reject);
        });
      });
      file.on('end', () => resolve(out));
      file.on('error', reject);
      file.readEntry();
    });
  });

/** Limits the page's upload speed (bytes per second) through the DevTools protocol; -1 lifts it. */
export const throttleUpload = async (page: Page, bytesPerSecond: number): Promise<void> => {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: bytesPerSecond,
  });
};

/** The progress bar value (aria-valuenow) of a locator. */
export const progressOf = async (page: Page, selector: string): Promise<number> =>
  Number(await page.locator(selector).getAttribute('aria-valuenow'));

/** The session token the web client keeps in the page's storage, or null when signed out. */
export const storedToken = (page: Page): Promise<string | null> =>
  page.evaluate(() => (JSON.parse(localStorage.getItem('account') ?? 'null') as { token: string } | null)?.token ?? null);

/** Fills in and sends the login form of the page. */
export const signInWithForm = async (page: Page, login: string, password: string): Promise<void> => {
  await page.getByLabel('User name').fill(login);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
};

/** The login page's `r` (the page to go back to) when the page shows the login page, else null. */
export const loginReturnPath = (page: Page): string | null => {
  const url = new URL(page.url());
  return url.pathname === '/app/login' ? url.searchParams.get('r') : null;
};
