/**
 * Link previews are not people. A chat app that unfurls a pasted link (Slack,
 * WhatsApp, Telegram, Discord, iMessage, Teams, …) fetches it with a
 * User-Agent that `isbot`'s kept list recognises. That list also names
 * command-line and library HTTP clients (curl, wget, node, python) and
 * headless browsers; those act for a person who asked for the file (Sharry's
 * curl recipes, scripts), so their patterns are left out: what they fetch is
 * a recipient's download.
 */
import { createIsbotFromList, list } from 'isbot';

/** User-Agents of clients that a person drives; every pattern of the list that matches one of them is dropped. */
const personDriven = [
  'curl/8.5.0',
  'Wget/1.21.4',
  'node',
  'undici',
  'node-fetch/1.0',
  'python-requests/2.31.0',
  'Python-urllib/3.12',
  'axios/1.6.0',
  'Java/17.0.1',
  'PowerShell/7.4',
  'aria2/1.37.0',
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36',
];

const previewPatterns = list.filter((pattern) => {
  const re = new RegExp(pattern, 'i');
  return !personDriven.some((ua) => re.test(ua));
});

const matches = createIsbotFromList(previewPatterns);

/** Whether a request comes from a link-preview fetcher or crawler rather than a person (see the header). */
export const isPreviewAgent = (userAgent: string | undefined): boolean => !!userAgent && matches(userAgent);
