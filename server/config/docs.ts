/**
 * Renders `docs/configuration.md` from the spec: every key with its type,
 * default and meaning, grouped in sections. `scripts/gen-config-docs.ts`
 * writes it; a unit test fails when the file is out of date.
 */
import { evalDefault, type DefaultContext, type LeafSpec, type Raw, type Spec } from './spec-kit.js';
import { restserverSpec } from './spec.js';
import { DOCS_INTRO } from './docs-intro.js';

interface Section {
  title: string;
  doc: string;
  rows: string[];
  notes: string[];
}

/** Defaults that depend on the data directory are shown relative to it. */
const docCtx: DefaultContext = { dataDir: '<data-dir>' };

/** The complete Markdown text of `docs/configuration.md`. */
export const renderConfigDocs = (): string => {
  const sections: Section[] = [];
  const general: Section = { title: 'General', doc: 'Address, data directory and limits of the server', rows: [], notes: [] };
  sections.push(general);
  walk(restserverSpec, [], general, sections);
  const toc = sections.map((s) => `- [${s.title}](#${anchor(s.title)})`).join('\n');
  const body = sections.map(renderSection).join('\n');
  return `${DOCS_INTRO}\n## Sections\n\n${toc}\n\n${body}`;
};

const walk = (spec: Spec, segs: string[], section: Section, sections: Section[]): void => {
  const key = segs.join('.');
  switch (spec.kind) {
    case 'group': {
      let target = section;
      if (spec.title !== undefined) {
        target = { title: spec.title, doc: spec.doc, rows: [], notes: [] };
        sections.push(target);
      } else if (segs.length > 0 && Object.values(spec.children).some((c) => c.kind !== 'group' || c.title === undefined))
        section.rows.push(row(`\`${key}\``, 'object', '', spec.doc));
      for (const [k, child] of Object.entries(spec.children)) walk(child, [...segs, k], target, sections);
      return;
    }
    case 'map': {
      section.rows.push(row(`\`${key}\``, 'map (id → entry)', 'see below', spec.doc));
      walk(spec.entry, [...segs, '<id>'], section, sections);
      const entries = evalDefault(spec.default, docCtx);
      if (Object.keys(entries).length > 0)
        section.notes.push(`Predefined entries of \`${key}\` (a file or the environment can change them):\n\n\`\`\`hocon\n${key} ${hocon(entries, '')}\n\`\`\`\n`);
      return;
    }
    case 'object-list': {
      section.rows.push(row(`\`${key}\``, 'named entries or a list', 'see below', spec.doc));
      walk(spec.entry, [...segs, '<id>'], section, sections);
      section.notes.push(
        `Predefined entries of \`${key}\` (named entries of a file or the environment are merged into them by id; a list, \`[{...}, ...]\`, replaces them):\n\n\`\`\`hocon\n${key} ${hocon(evalDefault(spec.default, docCtx), '')}\n\`\`\`\n`,
      );
      return;
    }
    default: {
      const text = shownDefault(spec);
      if (text.includes('\n')) {
        section.rows.push(row(`\`${key}\``, typeName(spec), 'see below', spec.doc));
        section.notes.push(`Default of \`${key}\`:\n\n\`\`\`\n${text}\n\`\`\`\n`);
      } else section.rows.push(row(`\`${key}\``, typeName(spec), spec.required ? '_required_' : `\`${text}\``, spec.doc));
    }
  }
};

const renderSection = (s: Section): string =>
  [
    `## ${s.title}\n`,
    `${s.doc}.\n`,
    '| Key | Type | Default | Meaning |',
    '|---|---|---|---|',
    ...s.rows,
    '',
    ...s.notes,
  ].join('\n');

const row = (...cells: string[]): string => `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;

const anchor = (title: string): string =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .replace(/ /g, '-');

const typeName = (spec: LeafSpec): string => (spec.optional ? `${kindName(spec)}, optional` : kindName(spec));

const kindName = (spec: LeafSpec): string => {
  switch (spec.kind) {
    case 'int':
      return spec.min !== undefined && spec.max !== undefined ? `integer ${spec.min}–${spec.max}` : spec.min !== undefined ? `integer ≥ ${spec.min}` : 'integer';
    case 'bool':
      return 'boolean';
    case 'enum':
      return spec.values.map((v) => `\`${v}\``).join(', ');
    case 'int-list':
      return 'list of integers';
    case 'string-list':
      return 'list of strings';
    default:
      return spec.kind;
  }
};

const shownDefault = (spec: LeafSpec): string => {
  if (spec.shownDefault !== undefined) return spec.shownDefault;
  const value = evalDefault<Raw>(spec.default, docCtx);
  if (spec.kind === 'string') return (value as string).includes('\n') ? (value as string) : JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => JSON.stringify(v)).join(', ')}]`;
  return String(value);
};

/** A raw value as HOCON text. */
const hocon = (value: Raw, indent: string): string => {
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.every((v) => typeof v !== 'object' || v === null)) return `[${value.map((v) => hocon(v, inner)).join(', ')}]`;
    return `[\n${value.map((v) => `${inner}${hocon(v, inner)}`).join('\n')}\n${indent}]`;
  }
  if (typeof value === 'object' && value !== null) {
    const lines = Object.entries(value).map(([k, v]) => `${inner}${/^[A-Za-z0-9_-]+$/.test(k) ? k : JSON.stringify(k)} = ${hocon(v, inner)}`);
    return `{\n${lines.join('\n')}\n${indent}}`;
  }
  if (typeof value === 'string') return value.includes('\n') ? `"""${value}"""` : JSON.stringify(value);
  return String(value);
};
