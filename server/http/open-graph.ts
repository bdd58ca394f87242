/**
 * Open Graph tags for a share link (`/app/open/<pid>`), so a link pasted in a
 * chat app shows what it is: the share's name, how many files, how large, and
 * until when. A share with a password shows none of that (its name, files,
 * size and dates are for those who know the password), only that it needs one; a share that
 * cannot be opened (unknown, unpublished, expired, views used up) gets the
 * same generic tags as any other page. No image: a picture from the share
 * would be served to anyone with the link without counting a view.
 */
import type { LinkPreview } from '../core/shares/link-preview.js';

export interface OpenGraphContext {
  appName: string;
  /** the absolute URL of the page */
  url: string;
  /** IANA zone for the expiry date; UTC when empty or unknown */
  timeZone: string;
}

const MAX_TITLE = 100;
const MAX_DESCRIPTION = 200;

const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** At most `max` characters (whole code points), with an ellipsis when cut. */
const bounded = (s: string, max: number): string => {
  const chars = [...s];
  return chars.length <= max ? s : `${chars.slice(0, max - 1).join('').trimEnd()}…`;
};

const units = ['B', 'KB', 'MB', 'GB', 'TB'];

/** `1536` → `1.5 KB`, as the web client writes sizes in English. */
export const sizeText = (bytes: number): string => {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
};

const dateText = (ms: number, timeZone: string): string => {
  const options: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' };
  try {
    return new Intl.DateTimeFormat('en-GB', { ...options, timeZone: timeZone || 'UTC' }).format(ms);
  } catch {
    return new Intl.DateTimeFormat('en-GB', { ...options, timeZone: 'UTC' }).format(ms);
  }
};

const filesText = (n: number): string => (n === 1 ? '1 file' : `${n} files`);

/** Title and description of a link: generic for a share that cannot be opened (`preview` null). */
export const openGraphText = (preview: LinkPreview | null, ctx: OpenGraphContext): { title: string; description: string } => {
  if (!preview) return { title: ctx.appName, description: 'Files shared with you.' };
  if (preview.password) return { title: ctx.appName, description: 'Files shared with you · password required' };
  const parts = [filesText(preview.files), sizeText(preview.size), `available until ${dateText(preview.publishUntil, ctx.timeZone)}`];
  if (!preview.name && preview.firstFile) parts.unshift(bounded(preview.firstFile, 80));
  return { title: preview.name ?? filesText(preview.files), description: parts.join(' · ') };
};

/** Whether a request comes from a link-preview fetcher or crawler rather than a person's browser (`isbot`'s kept list, see `preview-agent.ts`). */
export { isPreviewAgent } from '../core/activity/preview-agent.js';

/**
 * The page a link-preview fetcher gets: the tags and nothing to run, so that
 * even a fetcher that runs scripts never opens the share (which would count
 * a view).
 */
export const previewPage = (preview: LinkPreview | null, ctx: OpenGraphContext): string =>
  `<!doctype html>\n<html><head><meta charset="utf-8" />\n<title>${escapeHtml(bounded(openGraphText(preview, ctx).title, MAX_TITLE))}</title>\n${openGraphTags(preview, ctx)}\n</head><body></body></html>\n`;

/** The `<meta property="og:…">` tags, every value escaped and bounded. */
export const openGraphTags = (preview: LinkPreview | null, ctx: OpenGraphContext): string => {
  const { title, description } = openGraphText(preview, ctx);
  const tags: [string, string][] = [
    ['og:type', 'website'],
    ['og:site_name', bounded(ctx.appName, MAX_TITLE)],
    ['og:title', bounded(title, MAX_TITLE)],
    ['og:description', bounded(description, MAX_DESCRIPTION)],
    ['og:url', ctx.url],
  ];
  return tags.map(([p, v]) => `<meta property="${p}" content="${escapeHtml(v)}" />`).join('\n');
};
