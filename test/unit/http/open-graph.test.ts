// Link previews: which requests are preview fetchers (they get the tags without the
// app), and the texts of the tags for shares that can and cannot be opened.
import { describe, expect, it } from 'vitest';
import { isPreviewAgent, openGraphTags, openGraphText, sizeText } from '../../../server/http/open-graph.js';

const ctx = { appName: 'Pier', url: 'http://pier.test/app/open/P1', timeZone: 'Europe/Berlin' };
const until = Date.UTC(2030, 2, 12, 9, 30);

describe('link previews', () => {
  it('tell preview fetchers and crawlers from the browsers of people', () => {
    for (const ua of [
      'facebookexternalhit/1.1 Facebot Twitterbot/1.0',
      'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
      'TelegramBot (like TwitterBot)',
      'WhatsApp/2.23.20.0',
      'LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)',
      'Mozilla/5.0 (Windows NT 6.1; WOW64) SkypeUriPreview Preview/0.5 skype-url-preview@microsoft.com',
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'Mastodon/4.2.0 (http.rb/5.1.1; +https://mastodon.social/)',
    ]) {
      expect(isPreviewAgent(ua), ua).toBe(true);
    }
    for (const ua of [
      undefined,
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
      'Mozilla/5.0 (Linux; Android 13; CUBOT X70 Build/TP1A.220624.014) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36',
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/450.0]',
      'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/121.0 Mobile Safari/537.36 LinkedInApp/9.28',
    ]) {
      expect(isPreviewAgent(ua), ua).toBe(false);
    }
  });

  it('write sizes as the web client does', () => {
    expect([0, 1023, 1536, 200 * 1024 * 1024, 3 * 1024 ** 4].map(sizeText)).toEqual(['0 B', '1023 B', '1.5 KB', '200.0 MB', '3.0 TB']);
  });

  it('give the date in the configured zone, and fall back to UTC for an unknown one', () => {
    const share = { name: 'N', password: false, publishUntil: until, files: 1, size: 1, firstFile: 'a' };
    expect(openGraphText(share, ctx).description).toBe('1 file · 1 B · available until 12 Mar 2030, 10:30 CET');
    expect(openGraphText(share, { ...ctx, timeZone: 'Not/AZone' }).description).toBe('1 file · 1 B · available until 12 Mar 2030, 09:30 UTC');
  });

  // Regression: a share with a password showed its name, size and expiry to anyone holding the link.
  it('say nothing of a share with a password but that it needs one: no name, file, size or date', () => {
    const share = { name: 'Merger papers', password: true, publishUntil: until, files: 3, size: 4096, firstFile: null };
    const { title, description } = openGraphText(share, ctx);
    expect(title).toBe('Pier');
    expect(description).toBe('Files shared with you · password required');
    expect(openGraphTags(share, ctx)).not.toMatch(/Merger|3 files|4\.0 KB|2030/);
  });

  it('bound the first file name, so the size and date still fit', () => {
    const share = { name: null, password: false, publishUntil: until, files: 2, size: 2048, firstFile: 'x'.repeat(500) };
    const { title, description } = openGraphText(share, ctx);
    expect(title).toBe('2 files');
    expect(description).toMatch(/^x{79}… · 2 files · 2\.0 KB · available until 12 Mar 2030/);
    expect([...description].length).toBeLessThanOrEqual(200);
  });

  it('are generic for a share that cannot be opened', () => {
    expect(openGraphTags(null, ctx)).toBe(
      [
        '<meta property="og:type" content="website" />',
        '<meta property="og:site_name" content="Pier" />',
        '<meta property="og:title" content="Pier" />',
        '<meta property="og:description" content="Files shared with you." />',
        '<meta property="og:url" content="http://pier.test/app/open/P1" />',
      ].join('\n'),
    );
  });
});
