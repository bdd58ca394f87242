// Link previews are not people: the unfurlers of the common chat apps are told
// apart from people's browsers by isbot's kept list, while command-line clients
// and headless browsers, which act for a person, stay recipients.
import { describe, expect, it } from 'vitest';
import { isPreviewAgent } from '../../../server/core/activity/preview-agent.js';
import { clientName } from '../../../server/core/activity/client-name.js';

const unfurlers: Record<string, string> = {
  Slack: 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
  'Slack images': 'Slack-ImgProxy (+https://api.slack.com/robots)',
  WhatsApp: 'WhatsApp/2.23.20.0 A',
  Telegram: 'TelegramBot (like TwitterBot)',
  Discord: 'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
  iMessage: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) AppleWebKit/601.2.4 (KHTML, like Gecko) Version/9.0.1 Safari/601.2.4 facebookexternalhit/1.1 Facebot Twitterbot/1.0',
  Teams: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/51.0.2704.79 Safari/537.36 Edge/14.14393 MicrosoftPreview/2.0 +https://aka.ms/MicrosoftPreview',
  'Skype/Teams': 'Mozilla/5.0 (Windows NT 6.1; WOW64) SkypeUriPreview Preview/0.5 skype-url-preview@microsoft.com',
  Facebook: 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
  LinkedIn: 'LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)',
  Mastodon: 'Mastodon/4.2.0 (http.rb/5.1.1; +https://mastodon.social/)',
  Google: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
};

const people: Record<string, string> = {
  'Chrome on Windows': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Safari on iPhone': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1',
  'Firefox on Android': 'Mozilla/5.0 (Android 14; Mobile; rv:121.0) Gecko/121.0 Firefox/121.0',
  'Chrome on Android': 'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36',
  'Firefox on Linux': 'Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0',
  'Edge on Windows': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.0.0',
  'Safari on macOS': 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_1) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15',
  'Chrome on Linux': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36',
  curl: 'curl/8.5.0',
  Wget: 'Wget/1.21.4',
  'python-requests': 'python-requests/2.31.0',
  node: 'node',
};

describe('link previews', () => {
  it.each(Object.entries(unfurlers))('recognise the %s unfurler', (_app, ua) => {
    expect(isPreviewAgent(ua)).toBe(true);
  });

  it.each(Object.entries(people))('take %s for a person', (_name, ua) => {
    expect(isPreviewAgent(ua)).toBe(false);
  });

  it('take in-app browsers of chat apps and a missing User-Agent for people', () => {
    for (const ua of [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/440.0.0.34.109;]',
      'Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [LinkedInApp]',
      '',
      undefined,
    ])
      expect(isPreviewAgent(ua), String(ua)).toBe(false);
  });
});

describe('client names', () => {
  it.each(Object.entries(people).filter(([n]) => n.includes(' on ')))('name %s', (name, ua) => {
    expect(clientName(ua)).toBe(name);
  });

  it('name other clients by their first product, bounded, and nothing by nothing', () => {
    expect(clientName('curl/8.5.0')).toBe('curl');
    expect(clientName('python-requests/2.31.0')).toBe('python-requests');
    expect(clientName(`${'x'.repeat(300)}/1`)).toHaveLength(40);
    expect(clientName(undefined)).toBe('');
    expect(clientName('  ')).toBe('');
  });
});
