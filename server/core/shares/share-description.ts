/**
 * The share description: mustache file references (`{{files}}`,
 * `{{file.0.url}}`, `{{filename.photoJPG.url}}`, `{{key}}`, `{{openKey}}`),
 * then markdown rendered to safe HTML: no raw HTML, links only to http(s),
 * mailto or relative URLs, images only from the share's own file URLs.
 */
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
  /** URL prefix images must start with (the share's file URLs) */
  imagePrefix: string;
}

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

/** Applies the mustache references; a template that does not parse is left as written. */
export const applyFileReferences = (raw: string, ctx: DescriptionContext): string => {
  try {
    // A fresh writer per call: mustache's shared cache would keep every description forever.
    return new Mustache.Writer().render(raw, viewOf(ctx), {}, { escape: escapeMarkdown });
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

type RenderEnv = Record<string, unknown> & { imagePrefix?: string };

const md = new MarkdownIt({ html: false, linkify: false, typographer: false });
md.validateLink = isSafeLink;
md.renderer.rules.image = (tokens, idx, _options, env: RenderEnv | undefined) => {
  const token = tokens[idx]!;
  const src = String(token.attrGet('src') ?? '');
  const imagePrefix = env?.imagePrefix ?? '';
  const alt = token.children ? md.renderer.renderInlineAsText(token.children, md.options, env ?? {}) : token.content;
  const local = src.startsWith('/api/v2/') && !src.startsWith('//');
  if (!local && !(imagePrefix && src.startsWith(imagePrefix))) return md.utils.escapeHtml(alt);
  const title = token.attrGet('title');
  return `<img src="${md.utils.escapeHtml(src)}" alt="${md.utils.escapeHtml(alt)}"${title ? ` title="${md.utils.escapeHtml(String(title))}"` : ''}>`;
};
const defaultLinkOpen = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  tokens[idx]!.attrSet('rel', 'noopener noreferrer nofollow');
  return defaultLinkOpen(tokens, idx, options, env, self);
};

/** Markdown to HTML without raw HTML; unsafe links lose their target. */
export const renderMarkdown = (text: string, imagePrefix: string): string => md.render(text, { imagePrefix });

/** The rendered description, or null when the share has none. */
export const renderDescription = (raw: string | null, ctx: DescriptionContext): string | null =>
  raw ? renderMarkdown(applyFileReferences(raw, ctx), ctx.imagePrefix) : null;
