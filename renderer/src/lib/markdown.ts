// Markdown to HTML in the browser without raw HTML (`html: false`): what the user typed
// can never become markup. Links go only to http(s), mailto or relative URLs. An image
// shows only when its URL, resolved as the browser would load it, is exactly one of the
// allowed image URLs (a share's own files): any other image would make every reader's
// browser send a request of the author's choosing to this server, with the reader's
// cookies. markdown-it's cost grows with its input, so input beyond MAX_MARKDOWN
// characters is cut. markdown-it is loaded on first use, so pages without markdown do
// not pay for it.
import type MarkdownItCtor from 'markdown-it';

type MarkdownIt = InstanceType<typeof MarkdownItCtor>;

/** The most characters rendered: a share description as the server fills it in. */
export const MAX_MARKDOWN = 256 * 1024;

export interface MarkdownOptions {
  /** the URLs images may have (a share's own files); without them no image is shown */
  images?: readonly string[];
  /** the URL relative URLs resolve against, as the browser does: the page's */
  base?: string;
}

type RenderEnv = Record<string, unknown> & { imageAllowed?: (src: string) => boolean };

const schemeOf = (url: string): string | undefined => /^([^/?#]*):/.exec(url.trim())?.[1]?.toLowerCase();

/** Links: http, https, mailto, or no scheme at all (relative). */
export const isSafeLink = (url: string): boolean => {
  const scheme = schemeOf(url);
  return scheme === undefined || scheme === 'http' || scheme === 'https' || scheme === 'mailto';
};

/** `url` as the browser requests it from a page at `base`: path and query, or undefined for another origin. */
const resolved = (url: string, base: URL): string | undefined => {
  try {
    const u = new URL(url, base);
    return u.origin === base.origin ? u.pathname + u.search : undefined;
  } catch {
    return undefined;
  }
};

/**
 * A test of image URLs on a page at `base`: true exactly when a URL, resolved as the
 * browser resolves it (dot segments, encoded or not, and backslashes included), has
 * the page's origin and the path and query of one of `allowed`.
 */
export const imageAllowList = (allowed: readonly string[], base: string): ((src: string) => boolean) => {
  const page = new URL(base);
  const own = new Set(allowed.map((u) => resolved(u, page)).filter((u) => u !== undefined));
  return (src) => {
    const r = resolved(src, page);
    return r !== undefined && own.has(r);
  };
};

let instance: Promise<MarkdownIt> | undefined;

function load(): Promise<MarkdownIt> {
  instance ??= import('markdown-it').then(({ default: Md }) => {
    const md = new Md({ html: false, linkify: true, breaks: false });
    md.validateLink = isSafeLink;
    // Links open in a new tab without giving it access to this page.
    const defaultRender = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
    md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
      tokens[idx]!.attrSet('target', '_blank');
      tokens[idx]!.attrSet('rel', 'noopener noreferrer nofollow');
      return defaultRender(tokens, idx, options, env, self);
    };
    const defaultImage = md.renderer.rules.image!;
    md.renderer.rules.image = (tokens, idx, options, env: RenderEnv | undefined, self) => {
      const token = tokens[idx]!;
      if (env?.imageAllowed?.(String(token.attrGet('src') ?? ''))) return defaultImage(tokens, idx, options, env, self);
      // an image that may not load shows its text
      return md.utils.escapeHtml(self.renderInlineAsText(token.children ?? [], options, env ?? {}));
    };
    return md;
  });
  return instance;
}

/** Renders markdown to safe HTML: no raw HTML, safe links, images only from `options.images`. */
export async function renderMarkdown(text: string, options: MarkdownOptions = {}): Promise<string> {
  if (!text.trim()) return '';
  const env: RenderEnv = { imageAllowed: imageAllowList(options.images ?? [], options.base ?? globalThis.location.href) };
  return (await load()).render(text.length > MAX_MARKDOWN ? text.slice(0, MAX_MARKDOWN) : text, env);
}
