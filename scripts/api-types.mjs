#!/usr/bin/env node
// `npm run gen:api-types`: writes the web client's API types (renderer/src/api/schema.d.ts)
// from server/openapi.yml with openapi-typescript. With `--check` (run by `npm run
// typecheck`) it writes nothing: it generates into a temporary file and fails when that
// differs from the committed one, naming the command that brings it up to date.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const spec = join(root, 'server', 'openapi.yml');
const target = join(root, 'renderer', 'src', 'api', 'schema.d.ts');
const cli = join(dirname(createRequire(import.meta.url).resolve('openapi-typescript/package.json')), 'bin', 'cli.js');
const check = process.argv.includes('--check');

function generate(out) {
  const r = spawnSync(process.execPath, [cli, spec, '--output', out], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) {
    process.stderr.write(r.stderr || r.stdout);
    process.exit(1);
  }
}

if (!check) {
  generate(target);
  process.stdout.write(`wrote ${relative(root, target)}\n`);
} else {
  const dir = mkdtempSync(join(tmpdir(), 'pier-api-types-'));
  try {
    const fresh = join(dir, 'schema.d.ts');
    generate(fresh);
    let committed = null;
    try {
      committed = readFileSync(target, 'utf8');
    } catch {
      // missing: reported below like any other difference
    }
    if (committed !== readFileSync(fresh, 'utf8')) {
      process.stderr.write(
        `${relative(root, target)} does not match server/openapi.yml; run \`npm run gen:api-types\` and commit the result.\n`,
      );
      process.exit(1);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
