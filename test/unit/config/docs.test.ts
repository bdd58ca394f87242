import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderConfigDocs } from '../../../server/config/index.js';
import { envName, keyPatterns } from '../../../server/config/paths.js';
import { restserverSpec } from '../../../server/config/spec.js';

const docsFile = fileURLToPath(new URL('../../../docs/configuration.md', import.meta.url));

describe('docs/configuration.md', () => {
  it('is up to date with the spec (run `npm run docs:config`)', () => {
    expect(readFileSync(docsFile, 'utf8')).toBe(renderConfigDocs());
  });

  it('names every key of the spec', () => {
    const text = renderConfigDocs();
    const all = keyPatterns(restserverSpec).map((p) => p.join('.'));
    const leaves = keyPatterns(restserverSpec).filter((p) => !all.some((o) => o.startsWith(`${p.join('.')}.`)));
    expect(leaves.length).toBeGreaterThan(120);
    for (const p of leaves) {
      const key = p.map((s) => (s === '*' ? '<id>' : s)).join('.');
      expect(text, key).toContain(`\`${key}\``);
    }
  });
});

describe('the spec', () => {
  it('gives every key its own environment variable', () => {
    const names = keyPatterns(restserverSpec).map(envName);
    expect(new Set(names).size).toBe(names.length);
  });
});
