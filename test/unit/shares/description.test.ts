import { describe, expect, it } from 'vitest';
import { applyFileReferences, isSafeLink, renderDescription, type DescriptionContext } from '../../../server/core/shares/share-description.js';
import type { FileRecord } from '../../../server/core/shares/share.repository.js';

const file = (id: string, filename: string, mimetype = 'image/jpeg', length = 1536): FileRecord => ({
  id,
  shareId: 's',
  fileId: `m-${id}`,
  filename,
  mimetype,
  length,
  storedSize: length,
  checksum: 'ab'.repeat(32),
  created: 0,
  store: 'default',
  ref: { fileId: `m-${id}`, location: '' },
});

const prefix = 'http://pier.test/api/v2/sec/share/S1/file/';
const ctx: DescriptionContext = {
  key: 'S1',
  openKey: 'P1',
  files: [file('f1', 'photo.JPG'), file('f2', '[evil](javascript:alert(1)).txt', 'text/plain', 10)],
  fileUrl: (f) => prefix + f.id,
  imagePrefix: prefix,
};

describe('share descriptions', () => {
  it('resolves the mustache file references', () => {
    expect(applyFileReferences('{{key}} {{openKey}}', ctx)).toBe('S1 P1');
    expect(renderDescription('![p]({{filename.photoJPG.url}})', ctx)).toBe(`<p><img src="${prefix}f1" alt="p"></p>\n`);
    expect(renderDescription('[x]({{file.0.url}}) {{file.0.size}} {{file.0.length}}', ctx)).toContain(`<a href="${prefix}f1" rel="noopener noreferrer nofollow">x</a> 1.5K 1536`);
    const list = renderDescription('{{#files}}\n- {{name}}: {{mimetype}}\n{{/files}}', ctx)!;
    expect(list).toContain('<li>photo.JPG: image/jpeg</li>');
    // a file name cannot become a link
    expect(list).toContain('<li>[evil](javascript:alert(1)).txt: text/plain</li>');
    expect(list).not.toContain('<a');
  });

  it('renders markdown without raw HTML or unsafe links', () => {
    const html = renderDescription('# T\n<script>alert(1)</script>\n[a](javascript:alert(1)) [b](JAVASCRIPT:x) [c](data:text/html,x) <javascript:alert(1)> [d](https://ok.test/x) [e](/rel)', ctx)!;
    expect(html).not.toContain('<script');
    expect(html).toContain('&lt;script&gt;');
    expect(html).not.toMatch(/href="(javascript|data)/i);
    expect(html).toContain('<a href="https://ok.test/x" rel="noopener noreferrer nofollow">d</a>');
    expect(html).toContain('<a href="/rel" rel="noopener noreferrer nofollow">e</a>');
    expect(html).toContain('<h1>T</h1>');
  });

  it('shows images only from the share itself', () => {
    expect(renderDescription('![x](https://tracker.test/p.gif)', ctx)).toBe('<p>x</p>\n');
    expect(renderDescription('![x](/api/v2/open/share/P/file/f)', ctx)).toContain('<img src="/api/v2/open/share/P/file/f"');
    expect(renderDescription('![x](javascript:alert(1))', ctx)).not.toContain('<img');
  });

  it('leaves a template that does not parse as written and has no description for null', () => {
    expect(applyFileReferences('{{#files}} unclosed', ctx)).toBe('{{#files}} unclosed');
    expect(renderDescription(null, ctx)).toBeNull();
  });

  it('accepts http, https, mailto and relative links only', () => {
    for (const u of ['https://a.test', 'http://a.test', 'mailto:x@y.test', '/x', 'x/y', '#a', '?q=1']) expect(isSafeLink(u), u).toBe(true);
    for (const u of ['javascript:x', 'data:text/html,x', 'vbscript:x', 'file:///etc', ' JavaScript:x', 'blob:x']) expect(isSafeLink(u), u).toBe(false);
  });
});
