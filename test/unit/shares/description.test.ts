import { describe, expect, it } from 'vitest';
import { DESCRIPTION_LIMITS } from '../../../server/core/shares/description-template.js';
import { applyFileReferences, fillDescription, type DescriptionContext } from '../../../server/core/shares/share-description.js';
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
};
const escaped = (v: string) => v.replace(/[!-/:-@[-`{-~]/g, (c) => `\\${c}`);
const many = (n: number): DescriptionContext => ({ ...ctx, files: Array.from({ length: n }, (_, i) => file(`f${i}`, `n${i}.jpg`)) });

describe('share descriptions', () => {
  it('fills in the mustache file references and leaves the markdown to the client', () => {
    expect(applyFileReferences('{{key}} {{openKey}}', ctx)).toBe('S1 P1');
    expect(fillDescription('![p]({{filename.photoJPG.url}})', ctx)).toBe(`![p](${escaped(`${prefix}f1`)})`);
    expect(fillDescription('[x]({{file.0.url}}) {{file.0.size}} {{file.0.length}}', ctx)).toBe(`[x](${escaped(`${prefix}f1`)}) 1\\.5K 1536`);
    expect(fillDescription('# T\n{{#files}}\n- {{name}}: {{mimetype}}\n{{/files}}', ctx)).toBe(
      '# T\n- photo\\.JPG: image\\/jpeg\n- \\[evil\\]\\(javascript\\:alert\\(1\\)\\)\\.txt: text\\/plain\n',
    );
    expect(fillDescription('{{^files}}none{{/files}}{{#files.1}}{{name}}{{/files.1}}', { ...ctx, files: [] })).toBe('none');
    expect(fillDescription(null, ctx)).toBeNull();
  });

  it('leaves a template that does not parse as written', () => {
    expect(applyFileReferences('{{#files}} unclosed', ctx)).toBe('{{#files}} unclosed');
    expect(applyFileReferences('{{/files}}', ctx)).toBe('{{/files}}');
  });

  // Regression: nested sections over the files cost n^depth and ran synchronously (depth 12 over 5 files
  // blocked the server for 21 s); a section repeated up to 20000 characters per file. Nesting beyond the
  // limit leaves the template as written; output beyond the limit is cut and ends with `…`.
  it('bounds nesting and output, fast, whatever the template', () => {
    const thousand = many(1000);
    const deep = `${'{{#files}}'.repeat(12)}x${'{{/files}}'.repeat(12)}`;
    const started = performance.now();
    expect(applyFileReferences(deep, thousand)).toBe(deep);
    const wide = applyFileReferences(`{{#files}}{{#files}}${'y'.repeat(19_000)}{{/files}}{{/files}}`, thousand);
    expect(wide.length).toBeLessThanOrEqual(DESCRIPTION_LIMITS.output);
    expect(wide.endsWith('\n\n…')).toBe(true);
    const silent = applyFileReferences(`${'{{#files}}'.repeat(DESCRIPTION_LIMITS.depth)}{{nothing}}${'{{/files}}'.repeat(DESCRIPTION_LIMITS.depth)}`, thousand);
    expect(silent).toBe('\n\n…');
    expect(performance.now() - started).toBeLessThan(1000);
    // a list of 1000 files with links fits
    const list = applyFileReferences('{{#files}}- [{{name}}]({{url}})\n{{/files}}', thousand);
    expect(list.split('\n')).toHaveLength(1001);
    expect(list.endsWith('…')).toBe(false);
  });

  it('never reaches past the data: no prototypes, no functions, no whole lists as text', () => {
    for (const t of ['{{files.constructor}}', '{{#files.map}}x{{/files.map}}', '{{#filename.constructor.prototype}}{{#__defineGetter__}}toString{{/__defineGetter__}}{{/filename.constructor.prototype}}', '{{key.length}}', '{{files}}{{{file}}}{{filename}}', '{{>partial}}']) {
      expect(applyFileReferences(t, ctx), t).toBe('');
    }
    expect({}.toString()).toBe('[object Object]');
    // file names that are also property names of plain objects are just names
    const odd = { ...ctx, files: [file('p1', '__proto__'), file('c1', 'constructor')] };
    expect(applyFileReferences('{{filename.__proto__.id}} {{filename.constructor.id}} {{filename.toString}}', odd)).toBe('p1 c1 ');
  });

  it('shows a change of the text, the files or the access path at once', () => {
    const text = `{{#files}}{{name}} {{/files}}{{key}}`;
    expect(fillDescription(text, ctx)).toBe(fillDescription(text, ctx));
    expect(fillDescription(text, { ...ctx, files: [file('f3', 'b.txt')] })).toBe('b\\.txt S1');
    expect(fillDescription(text, { ...ctx, files: [file('f3', 'c.txt')] })).toBe('c\\.txt S1');
    expect(fillDescription(text, { ...ctx, files: [file('f3', 'c.txt')], key: 'P1' })).toBe('c\\.txt P1');
    expect(fillDescription(`${text}!`, { ...ctx, files: [file('f3', 'c.txt')], key: 'P1' })).toBe('c\\.txt P1!');
  });
});
