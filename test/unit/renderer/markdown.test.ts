// Regression: share descriptions showed an image when its URL merely started with
// `/api/v2/`, so `![](/api/v2/../v1/cover/album?...)` (resolved by the browser to a
// player command) or another share's file (a view of theirs spent) was requested by
// every reader's browser, with the reader's cookies. An image now shows only when its
// URL, resolved as the browser resolves it, is exactly one of the share's own file URLs.
// The web client renders descriptions, so its markdown must also stay safe and bounded.
import { describe, expect, it } from 'vitest';
import { imageAllowList, isSafeLink, MAX_MARKDOWN, renderMarkdown } from '../../../renderer/src/lib/markdown.js';

const origin = 'http://pier.test:8080';
const base = `${origin}/app/open/P1?view=2`;
const own = ['/api/v2/open/share/P1/file/f1', '/api/v2/open/share/P1/file/f%2B2'];
const render = (text: string) => renderMarkdown(text, { images: own, base });

describe('markdown in the web client', () => {
  it('shows an image only when its resolved URL is one of the share files', async () => {
    expect(await render('![a](/api/v2/open/share/P1/file/f1)')).toBe('<p><img src="/api/v2/open/share/P1/file/f1" alt="a"></p>\n');
    // the same files written differently, as the server fills them in
    for (const src of [
      `${origin}/api/v2/open/share/P1/file/f1`,
      'http\\:\\/\\/pier\\.test\\:8080\\/api\\/v2\\/open\\/share\\/P1\\/file\\/f1',
      '/api/v2/open/share/P1/x/../file/f1',
      '/api/v2/open/share/P1/file/f%2B2',
      '/api/v2/open/share/P1/file/f1#top',
    ]) {
      expect(await render(`![a](${src})`), src).toContain('<img');
    }
  });

  it('shows the text of any other image', async () => {
    for (const src of [
      '/api/v2/../v1/cover/album?name=x',
      '/api/v2/%2e%2e/v1/cover/album?name=x',
      '/api/v2/%2E%2E/v1/cover/album',
      '/api/v2/open/share/P1/file/%2e%2e/%2e%2e/%2e%2e/v1/booklet/album',
      '/api/v2/open/share/P1/file/f1/../../../../../v1/cover/album',
      '/api/v2/open/share/P1/file/..%2f..%2f..%2fv1%2fcover',
      '/api/v2\\..\\v1\\cover\\album',
      '/api/v2/open/share/OTHER/file/f1',
      '/api/v2/sec/share/S1/file/f1',
      '/api/v2/open/share/P1/file/f1?x=1',
      '/api/v2/open/share/P1/file/f1/',
      '/api/v2/open/share/P1/file/F1',
      '/api/v2/open/share/P1/file/nope',
      '/api/v2/open/share/P1/file',
      '//evil.test/api/v2/open/share/P1/file/f1',
      'http://evil.test/api/v2/open/share/P1/file/f1',
      'https://pier.test:8080/api/v2/open/share/P1/file/f1',
      'http://pier.test/api/v2/open/share/P1/file/f1',
      'api/v2/open/share/P1/file/f1',
      '../api/v2/open/share/P1/file/f1',
      '',
    ]) {
      const html = await render(`![alt *text*](${src})`);
      expect(html, src).not.toContain('<img');
      expect(html, src).toContain('alt text');
    }
    // unsafe schemes are no image (nor link) at all
    for (const src of ['javascript:alert(1)', 'data:image/png;base64,AAAA']) expect(await render(`![a](${src})`), src).not.toContain('<img');
    expect(await renderMarkdown('![a](/api/v2/open/share/P1/file/f1)', { base })).toBe('<p>a</p>\n');
    expect(imageAllowList(own, base)('/api/v2/open/share/P1/file/f1')).toBe(true);
    expect(imageAllowList([], base)('/api/v2/open/share/P1/file/f1')).toBe(false);
  });

  it('has no raw HTML and links only to http(s), mailto or relative URLs', async () => {
    const html = await render('# T\n<script>alert(1)</script> <img src=x onerror=alert(1)>\n[a](javascript:alert(1)) [b](JAVASCRIPT:x) [c](data:text/html,x) <javascript:alert(1)> [d](https://ok.test/x) [e](/rel)');
    expect(html).not.toMatch(/<script|<img|href="(javascript|data)/i);
    expect(html).toContain('&lt;script&gt;');
    expect(html).toContain('<a href="https://ok.test/x" target="_blank" rel="noopener noreferrer nofollow">d</a>');
    expect(html).toContain('<a href="/rel" target="_blank" rel="noopener noreferrer nofollow">e</a>');
    expect(html).toContain('<h1>T</h1>');
    for (const u of ['https://a.test', 'http://a.test', 'mailto:x@y.test', '/x', 'x/y', '#a', '?q=1']) expect(isSafeLink(u), u).toBe(true);
    for (const u of ['javascript:x', 'data:text/html,x', 'vbscript:x', 'file:///etc', ' JavaScript:x', 'blob:x']) expect(isSafeLink(u), u).toBe(false);
  });

  it('renders the worst 20000 characters quickly and cuts what is longer than the limit', async () => {
    const worst = ['[', '*[a', '![[', 'a*', '*a **a ', '`a``', '<a ', '&#', '\\', '- ', '> ', '|\n', '[a]: b\n', '_'];
    await render('warm up');
    for (const w of worst) {
      const text = w.repeat(Math.ceil(20_000 / w.length)).slice(0, 20_000);
      const started = performance.now();
      await render(text);
      expect(performance.now() - started, JSON.stringify(w)).toBeLessThan(500);
    }
    const long = `${'a'.repeat(MAX_MARKDOWN)}TAIL`;
    expect(await render(long)).not.toContain('TAIL');
  });
});
