/**
 * The share description as answers carry it: the raw markdown with its
 * mustache file references filled in (`{{#files}}…{{/files}}`, `{{file.0.url}}`,
 * `{{filename.photoJPG.url}}`, `{{key}}`, `{{openKey}}`). The web client renders
 * the markdown (no raw HTML, safe links, images only from the share's own
 * files); the server never does, so no markdown costs it time.
 *
 * Filling in is bounded whatever the description says (`DESCRIPTION_LIMITS`):
 * a template that does not parse or nests sections too deep is left as
 * written; one that runs past the output or step limit is cut there and ends
 * with `…`. Each result is kept by everything it depends on, so a view after
 * the first costs a hash.
 */
import { formatSize } from '../../common/sizes.js';
import { createTextCache } from './description-cache.js';
import { DESCRIPTION_LIMITS, renderTemplate } from './description-template.js';
import type { FileRecord } from './share.repository.js';

export interface DescriptionContext {
  /** the id the reader knows the share by: the share id (owner) or the publish id (public) */
  key: string;
  openKey: string | null;
  files: FileRecord[];
  /** the absolute download URL of a file on the current access path */
  fileUrl(f: FileRecord): string;
}

/** What ends a description cut at a limit. */
const CUT = '\n\n…';

// Values are inserted into markdown: a backslash before every ASCII
// punctuation character keeps a file name from becoming markup. Markdown
// removes these backslashes again, in text as in link destinations.
const escapeMarkdown = (value: unknown): string => String(value).replace(/[!-/:-@[-`{-~]/g, '\\$&');

const fileView = (f: FileRecord, url: string) => ({
  id: f.id,
  name: f.filename,
  filename: f.filename,
  mimetype: f.mimetype,
  length: f.length,
  size: formatSize(f.length),
  checksum: f.checksum,
  url,
});

const viewOf = (ctx: DescriptionContext, urls: readonly string[]) => {
  const files = ctx.files.map((f, i) => fileView(f, urls[i]!));
  // no prototype: a file named `__proto__` is just a name
  const byName = Object.create(null) as Record<string, ReturnType<typeof fileView>>;
  for (const f of files) {
    const k = f.name.replace(/\./g, '');
    if (k && !Object.hasOwn(byName, k)) byName[k] = f;
  }
  return { key: ctx.key, openKey: ctx.openKey ?? '', files, file: files, filename: byName };
};

const fill = (raw: string, ctx: DescriptionContext, urls: readonly string[]): string => {
  const r = renderTemplate(raw, viewOf(ctx, urls), escapeMarkdown, { ...DESCRIPTION_LIMITS, output: DESCRIPTION_LIMITS.output - CUT.length });
  if (!r) return raw.length > DESCRIPTION_LIMITS.output ? raw.slice(0, DESCRIPTION_LIMITS.output - CUT.length) + CUT : raw;
  return r.truncated ? r.text + CUT : r.text;
};

/**
 * Fills in the mustache references, within `DESCRIPTION_LIMITS`; a template
 * that does not parse or nests sections too deep is left as written.
 */
export const applyFileReferences = (raw: string, ctx: DescriptionContext): string => fill(raw, ctx, ctx.files.map((f) => ctx.fileUrl(f)));

// 500 descriptions, at most 8 M characters in all (a description is at most 256 KiB)
const filled = createTextCache(500, 8 * 1024 * 1024);

/**
 * The description as answers carry it (markdown, references filled in), or
 * null when the share has none. Rendered once per distinct text, access path
 * and file list.
 */
export const fillDescription = (raw: string | null, ctx: DescriptionContext): string | null => {
  if (!raw) return null;
  const urls = ctx.files.map((f) => ctx.fileUrl(f));
  const parts = [raw, ctx.key, ctx.openKey, urls, ctx.files.map((f) => [f.filename, f.mimetype, f.length, f.checksum])];
  return filled.get(parts, () => fill(raw, ctx, urls));
};
