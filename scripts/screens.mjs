// `npm run screens`: refreshes the screenshots in docs/screens/. Runs the browser specs
// that take them (those calling `screenPath` of test/e2e/screens.ts, directly or through
// `checkBothThemes` of test/e2e/page-checks.ts) with
// PIER_SCREENS=docs, which points their screenshots at docs/screens/ instead of
// test-results/. Needs `npm run build` first, like every browser test.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const e2e = join(root, 'test', 'e2e');
const specs = readdirSync(e2e)
  .filter((f) => f.endsWith('.spec.ts') && /\b(screenPath|checkBothThemes)\(/.test(readFileSync(join(e2e, f), 'utf8')))
  .sort()
  .map((f) => `test/e2e/${f}`);
console.log(`Refreshing docs/screens/ with ${specs.join(', ')}`);
const r = spawnSync('npx', ['playwright', 'test', ...specs, ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  shell: process.platform === 'win32',
  env: { ...process.env, PIER_SCREENS: 'docs' },
});
process.exit(r.status ?? 1);
