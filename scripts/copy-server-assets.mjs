// Copies the non-TypeScript files the compiled server reads at run time.
import { cpSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
for (const f of ['server/openapi.yml']) {
  const to = join(root, 'dist', f);
  mkdirSync(dirname(to), { recursive: true });
  cpSync(join(root, f), to);
}
