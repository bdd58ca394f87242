import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import express, { type Router } from 'express';
import type { Config } from '../config/types.js';
import type { LinkPreview } from '../core/shares/link-preview.js';
import type { Links } from './client-origin.js';
import { isPreviewAgent, openGraphTags, previewPage } from './open-graph.js';

/** The built web client: `dist/renderer` seen from the sources or from the compiled server. */
const rendererDir = (): string | undefined =>
  [new URL('../../dist/renderer/', import.meta.url), new URL('../../renderer/', import.meta.url)]
    .map((u) => fileURLToPath(u))
    // a build has Vite's manifest; the source folder `renderer/` has an index.html too
    .find((d) => existsSync(`${d}/index.html`) && existsSync(`${d}/.vite/manifest.json`));

const notBuilt = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Pier</title></head>
<body><h1>Pier is running</h1><p>The web client is not built. Run <code>npm run build</code>.</p></body></html>`;

/**
 * `webapp.custom-head`: the content of the file it names, or the value itself
 * as HTML; empty leaves the page's own head alone. Set by the administrator.
 */
export const customHeadHtml = (value: string): string => {
  if (!value.trim()) return '';
  try {
    if (!value.includes('<') && existsSync(value) && statSync(value).isFile()) return readFileSync(value, 'utf8');
  } catch {
    // not a readable file: the value is the snippet
  }
  return value;
};

/** index.html with `extra` inserted before `</head>`. */
const withHead = (html: string, extra: string): string => (extra ? html.replace('</head>', () => `${extra}\n</head>`) : html);

/** Sources the configuration adds to the policy. */
export interface PolicySources {
  script: string[];
  style: string[];
  img: string[];
}

/** The CSP source for a URL on another server (`https://cdn.example`), undefined for this server's own paths and data: URLs. */
const sourceOf = (url: string): string | undefined => {
  const value = url.trim();
  // scheme-relative: the host, which CSP matches with the page's own scheme
  if (value.startsWith('//')) return /^\/\/([A-Za-z0-9.-]+(?::\d{1,5})?)(?:[/?#]|$)/.exec(value)?.[1]?.toLowerCase();
  if (!/^https?:\/\//i.test(value)) return undefined;
  try {
    return new URL(value).origin;
  } catch {
    return undefined;
  }
};

const attribute = (attrs: string, name: string): string | undefined =>
  new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(attrs)?.slice(1).find((v) => v !== undefined);

const hashSource = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * What `webapp.custom-head` (administrator's HTML) needs: its inline
 * `<script>` and `<style>` blocks by their hashes, and the origins of the
 * scripts, style sheets and icons it loads from other servers. Inline event
 * handlers and `style` attributes stay refused.
 */
export const customHeadSources = (html: string): PolicySources => {
  const found: PolicySources = { script: [], style: [], img: [] };
  const add = (list: string[], source: string | undefined) => {
    if (source && !list.includes(source)) list.push(source);
  };
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const src = attribute(m[1]!, 'src');
    add(found.script, src === undefined ? hashSource(m[2]!) : sourceOf(src));
  }
  for (const m of html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style\s*>/gi)) add(found.style, hashSource(m[1]!));
  for (const m of html.matchAll(/<link\b([^>]*)>/gi)) {
    const rel = (attribute(m[1]!, 'rel') ?? '').toLowerCase().split(/\s+/);
    const href = sourceOf(attribute(m[1]!, 'href') ?? '');
    if (rel.includes('stylesheet')) add(found.style, href);
    if (rel.some((r) => r === 'icon' || r === 'apple-touch-icon' || r === 'mask-icon')) add(found.img, href);
  }
  return found;
};

/**
 * The one kind of `style` attribute the client's HTML has: markdown-it's
 * column alignment of tables in share descriptions. Allowed by the hash of
 * each exact value; any other style attribute stays refused.
 */
const tableAlignHashes = ['left', 'right', 'center'].map((a) => hashSource(`text-align:${a}`)).join(' ');

/**
 * The Content-Security-Policy of the web client. Scripts and styles only from
 * this server (the Vite build has no inline script or style; Vue's `:style`
 * bindings go through CSSOM, which the policy does not restrict), style
 * attributes only for table alignment in Markdown; images also
 * as data: (QR codes) and blob: URLs; media from this server (previews of
 * uploaded files, served with their own `sandbox` policy and framed from the
 * same origin, which `default-src 'self'` allows); requests to this server and
 * the player's WebSocket on the host the page was loaded from; no plugins, no
 * `<base>`, forms only to this server, and no page may frame it.
 */
export const contentSecurityPolicy = (extra: PolicySources, host?: string): string =>
  [
    "default-src 'self'",
    ["script-src 'self'", ...extra.script].join(' '),
    ["style-src 'self'", ...extra.style].join(' '),
    `style-src-attr 'unsafe-hashes' ${tableAlignHashes}`,
    ["img-src 'self' data: blob:", ...extra.img].join(' '),
    "media-src 'self' blob:",
    ["connect-src 'self'", ...(host ? [`ws://${host}`, `wss://${host}`] : [])].join(' '),
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join('; ');

/**
 * `/app` and every path below it answer the single-page app; files that exist
 * in the build (scripts, styles, images) are served as they are. Every answer
 * carries the policy and `X-Frame-Options: DENY`. A share link
 * (`/app/open/<pid>`) carries Open Graph tags from `preview`, which counts no
 * view; link-preview fetchers get the tags alone, without the app.
 */
export const webAppRouter = (
  config: { webapp: Pick<Config['webapp'], 'customHead' | 'appIcon' | 'appIconDark' | 'appLogo' | 'appLogoDark' | 'appName' | 'defaultTimezone'> },
  links: Links,
  preview: (publishId: string) => Promise<LinkPreview | null> = async () => null,
): Router => {
  const r = express.Router();
  const dir = rendererDir();
  const head = customHeadHtml(config.webapp.customHead);
  const html = dir ? readFileSync(`${dir}/index.html`, 'utf8') : undefined;
  const page = html ? withHead(html, head) : notBuilt;
  const { appIcon, appIconDark, appLogo, appLogoDark } = config.webapp;
  const extra = customHeadSources(head);
  for (const url of [appIcon, appIconDark, appLogo, appLogoDark]) {
    const source = sourceOf(url);
    if (source && !extra.img.includes(source)) extra.img.push(source);
  }
  r.use((req, res, next) => {
    const own = links.requestOrigin(req);
    res.setHeader('Content-Security-Policy', contentSecurityPolicy(extra, own ? new URL(own).host : undefined));
    res.setHeader('X-Frame-Options', 'DENY');
    next();
  });
  if (dir) r.use(express.static(dir, { index: false }));
  r.get('/open/:pid', async (req, res) => {
    const pid = String(req.params['pid']);
    const url = `${links.baseUrl(req)}/app/open/${encodeURIComponent(pid)}`;
    // the page itself must load even when the database does not answer: then the tags are generic
    const known = /^[A-Za-z0-9_@.-]{1,254}$/.test(pid) ? await preview(pid).catch(() => null) : null;
    const ctx = { appName: config.webapp.appName, url, timeZone: config.webapp.defaultTimezone };
    res.setHeader('Cache-Control', 'no-cache');
    res.vary('User-Agent');
    if (isPreviewAgent(req.get('user-agent'))) {
      res.type('html').send(previewPage(known, ctx));
      return;
    }
    const tags = openGraphTags(known, ctx);
    // the administrator's head keeps its place at the end of the head
    res.type('html').send(html ? withHead(html, head ? `${tags}\n${head}` : tags) : page);
  });
  r.get('/{*rest}', (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(page);
  });
  return r;
};
