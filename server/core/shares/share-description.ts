/**
 * The share description: mustache file references (`{{files}}`,
 * `{{file.0.url}}`, `{{filename.photoJPG.url}}`, `{{key}}`, `{{openKey}}`),
 * then markdown rendered to safe HTML: no raw HTML, links only to http(s),
 * mailto or relative URLs, images only from the share's own file URLs.
 *
 * Rendering is bounded whatever the description says: sections nest at most
 * `MAX_SECTION_DEPTH` deep, a template whose output could exceed
 * `MAX_OUTPUT` characters is shown as written, and the result of each
 * distinct input is kept (bounded), so a view renders nothing new.
 */
import { createHash } from 'node:crypto';
import MarkdownIt from 'markdown-it';
import Mustache from 'mustache';
import { formatSize } from '../../common/sizes.js';
import type { FileRecord } from './share.repository.js';

export interface DescriptionContext {
  /** the id the reader knows the share by: the share id (owner) or the publish id (public) */
  key: string;
  openKey: string | null;
  files: FileRecord[];
  /** the absolute download URL of a file on the current access path */
  fileUrl(f: FileRecord): string;
  /** URL prefix of the share's file URLs (images must be one of them) */
  imagePrefix: string;
}

/** Sections inside sections beyond this depth leave the template as written. */
export const MAX_SECTION_DEPTH = 3;
/** Most characters the filled-in template may have before markdown. */
export const MAX_OUTPUT = 200_000;
/** Rendered descriptions kept. */
const CACHE_ENTRIES = 500;

// Values are inserted into markdown: a backslash before every ASCII
// punctuation character keeps a file name from becoming markup. Markdown
// removes these backslashes again, in text as in link destinations.
const escapeMarkdown = (value: unknown): string => String(value).replace(/[!-/:-@[-`{-~]/g, (c) => `\\${c}`);

const fileView = (f: FileRecord, url: string) => ({
  id: f.id,
  name: f.filename,
  filename: f.filename,
  mimetype: f.mimetype,
  length: f.length,
  size: formatSize(f.length),
  checksum: f.checksum ?? '',
  url,
});

const viewOf = (ctx: DescriptionContext) => {
  const files = ctx.files.map((f) => fileView(f, ctx.fileUrl(f)));
  const byName: Record<string, ReturnType<typeof fileView>> = {};
  for (const f of files) {
    const k = f.name.replace(/\./g, '');
    if (k && !(k in byName)) byName[k] = f;
  }
  return { key: ctx.key, openKey: ctx.openKey ?? '', files, file: files, filename: byName };
};

type Token = [string, string, number, number, Token[]?, ...unknown[]];

/**
 * The most characters `tokens` can produce, or Infinity beyond `MAX_OUTPUT` or
 * `MAX_SECTION_DEPTH`: a section over a list repeats its content once per item.
 */
const worstOutput = (tokens: readonly Token[], view: Record<string, unknown>, longest: number, depth: number): number => {
  let total = 0;
  for (const t of tokens) {
    const [type, value] = t;
    if (type === 'text') total += value.length;
    else if (type === 'name' || type === '&' || type === '{') total += longest;
    else if (type === '#' || type === '^') {
      if (depth >= MAX_SECTION_DEPTH) return Infinity;
      const v = lookup(view, value);
      const times = type === '#' && Array.isArray(v) ? v.length : 1;
      total += times * worstOutput(t[4] ?? [], view, longest, depth + 1);
    }
    if (total > MAX_OUTPUT) return Infinity;
  }
  return total;
};

/** A dotted name looked up from the top of the view (sections inside lists resolve there too). */
const lookup = (view: Record<string, unknown>, name: string): unknown => {
  let v: unknown = view;
  for (const part of name.split('.')) {
    if (typeof v !== 'object' || v === null || !Object.hasOwn(v, part)) return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
};

/**
 * Applies the mustache references. A template that does not parse, nests
 * sections deeper than `MAX_SECTION_DEPTH` or could produce more than
 * `MAX_OUTPUT` characters is left as written.
 */
export const applyFileReferences = (raw: string, ctx: DescriptionContext): string => {
  try {
    // A fresh writer per call: mustache's shared cache would keep every description forever.
    const writer = new Mustache.Writer();
    const view = viewOf(ctx);
    // the longest value a variable can insert: every character escaped
    const longest = 2 * Math.max(0, ...view.files.flatMap((f) => [f.url.length, f.name.length, f.mimetype.length, f.checksum.length, 20]));
    if (worstOutput(writer.parse(raw) as unknown as Token[], view, longest, 0) > MAX_OUTPUT) return raw;
    return writer.render(raw, view, {}, { escape: escapeMarkdown });
  } catch {
    return raw;
  }
};

const schemeOf = (url: string): string | undefined => /^([^/?#]*):/.exec(url.trim())?.[1]?.toLowerCase();

/** Links: http, https, mailto, or no scheme at all (relative). */
export const isSafeLink = (url: string): boolean => {
  const scheme = schemeOf(url);
  return scheme === undefined || scheme === 'http' || scheme === 'https' || scheme === 'mailto';
};

type RenderEnv = Record<string, unknown> & { imageUrls?: readonly string[] };

const md = new MarkdownIt({ html: false, linkify: false, typographer: false });
md.validateLink = isSafeLink;
md.renderer.rules.image = (tokens, idx, _options, env: RenderEnv | undefined) => {
  const token = tokens[idx]!;
  const src = String(token.attrGet('src') ?? '');
  const alt = token.children ? md.renderer.renderInlineAsText(token.children, md.options, env ?? {}) : token.content;
  if (!isOwnFile(src, env?.imageUrls)) return md.utils.escapeHtml(alt);
  const title = token.attrGet('title');
  return `<img src="${md.utils.escapeHtml(src)}" alt="${md.utils.escapeHtml(alt)}"${title ? ` title="${md.utils.escapeHtml(String(title))}"` : ''}>`;
};

/**
 * True when `src`, resolved as a browser would (dot segments and their
 * percent-encoded forms included), is exactly one of the absolute URLs `own`.
 */
export const isOwnFile = (src: string, own: readonly string[] | undefined): boolean => {
  if (!own || own.length === 0) return false;
  try {
    const page = new URL('/app/', own[0]);
    const href = new URL(src, page).href;
    return own.some((u) => new URL(u, page).href === href);
  } catch {
    return false;
  }
};

const defaultLinkOpen = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  tokens[idx]!.attrSet('rel', 'noopener noreferrer nofollow');
  return defaultLinkOpen(tokens, idx, options, env, self);
};

/** Markdown to HTML without raw HTML; unsafe links lose their target; images only from `imageUrls`. */
export const renderMarkdown = (text: string, imageUrls: readonly string[]): string => md.render(text, { imageUrls });

const rendered = new Map<string, string>();

/**
 * The rendered description, or null when the share has none. The result of
 * each distinct input (text, files, URLs) is kept, the least recently used
 * dropped first, so repeated views cost a hash.
 */
export const renderDescription = (raw: string | null, ctx: DescriptionContext): string | null => {
  if (!raw) return null;
  const urls = ctx.files.map((f) => ctx.fileUrl(f));
  const key = createHash('sha256')
    .update(JSON.stringify([raw, ctx.key, ctx.openKey, ctx.imagePrefix, urls, ctx.files.map((f) => [f.filename, f.mimetype, f.length, f.checksum])]))
    .digest('base64');
  const hit = rendered.get(key);
  if (hit !== undefined) {
    rendered.delete(key);
    rendered.set(key, hit);
    return hit;
  }
  const html = renderMarkdown(applyFileReferences(raw, ctx), urls);
  rendered.set(key, html);
  if (rendered.size > CACHE_ENTRIES) rendered.delete(rendered.keys().next().value!);
  return html;
};
