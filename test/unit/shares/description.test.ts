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
    expect(renderDescription('![x](/api/v2/sec/share/S1/file/f1)', ctx)).toContain('<img src="/api/v2/sec/share/S1/file/f1"');
    expect(renderDescription(`![x](${prefix}f2)`, ctx)).toContain('<img');
    expect(renderDescription('![x](javascript:alert(1))', ctx)).not.toContain('<img');
  });

  // The allow-list accepted any path below /api/v2/, so `/api/v2/../v1/cover/album?name=...` (a daemon
  // command on every view) and other shares' files (a view of theirs spent) loaded as images.
  it('refuses images whose resolved URL is not one of the share\'s files', () => {
    for (const src of [
      '/api/v2/../v1/cover/album?name=x',
      '/api/v2/%2e%2e/v1/cover/album?name=x',
      '/api/v2/sec/share/S1/file/%2e%2e/%2e%2e/%2e%2e/v1/booklet/album',
      '/api/v2/open/share/OTHER/file/f1',
      `${prefix}f1/../../S2/file/f9`,
      `${prefix}f1?x=1`,
      `${prefix}nope`,
      '//evil.test/api/v2/sec/share/S1/file/f1',
      'http://evil.test/api/v2/sec/share/S1/file/f1',
    ]) {
      expect(renderDescription(`![x](${src})`, ctx), src).not.toContain('<img');
    }
  });

  // Nested sections over the files cost n^depth and ran synchronously: depth 12 over 5 files froze the server.
  it('leaves deeply nested or explosive templates as written, fast', () => {
    const many: DescriptionContext = { ...ctx, files: Array.from({ length: 1000 }, (_, i) => file(`f${i}`, `n${i}.jpg`)) };
    const deep = `${'{{#files}}'.repeat(12)}x${'{{/files}}'.repeat(12)}`;
    const wide = `{{#files}}{{#files}}${'y'.repeat(100)}{{/files}}{{/files}}`;
    const start = performance.now();
    expect(applyFileReferences(deep, many)).toBe(deep);
    expect(applyFileReferences(wide, many)).toBe(wide);
    expect(renderDescription(deep, many)).toContain('{{#files}}');
    expect(performance.now() - start).toBeLessThan(1000);
    // a list of the files is fine
    expect(applyFileReferences('{{#files}}- {{name}}\n{{/files}}', many).split('\n')).toHaveLength(1001);
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
