// Markdown to HTML in the browser without raw HTML (`html: false`): what the user typed
// can never become markup. markdown-it is loaded on first use, so pages without
// markdown do not pay for it.
import type MarkdownItCtor from 'markdown-it';

type MarkdownIt = InstanceType<typeof MarkdownItCtor>;

let instance: Promise<MarkdownIt> | undefined;

function load(): Promise<MarkdownIt> {
  instance ??= import('markdown-it').then(({ default: Md }) => {
    const md = new Md({ html: false, linkify: true, breaks: false });
    // Links open in a new tab without giving it access to this page.
    const defaultRender = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
    md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
      tokens[idx]!.attrSet('target', '_blank');
      tokens[idx]!.attrSet('rel', 'noopener noreferrer');
      return defaultRender(tokens, idx, options, env, self);
    };
    return md;
  });
  return instance;
}

/** Renders markdown to safe HTML (no raw HTML, markdown-it's link validation). */
export async function renderMarkdown(text: string): Promise<string> {
  if (!text.trim()) return '';
  return (await load()).render(text);
}
