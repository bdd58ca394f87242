// `npm run test:desktop`: the Playwright `_electron` smoke test (test/desktop). It needs
// the Electron runtime (`npm start` fetches it on first use) and `npm run build`; without
// the runtime, or without better-sqlite3 built for Electron (fetched here as `npm start`
// does), it fails and says so. On Linux without a display it runs under xvfb-run.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureProjectElectronSqlite } from './electron-native.mjs';
import { electronExecutable } from './electron-runtime.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

if (electronExecutable(join(root, 'node_modules', 'electron')) === null) {
  console.error(
    'Desktop smoke test not run: the Electron runtime is not installed (node_modules/electron has no binary). ' +
      'Run `npm start` once on a machine that can download it, then `npm run test:desktop`.',
  );
  process.exit(1);
}
if (!existsSync(join(root, 'dist', 'main', 'index.js'))) {
  console.error('dist/main/index.js is missing; run `npm run build` first.');
  process.exit(1);
}

// the app under test loads better-sqlite3 built for Electron, as `npm start` gives it
const sqlite = await ensureProjectElectronSqlite(root);
if (!('path' in sqlite)) {
  console.error(`Desktop smoke test not run: no better-sqlite3 built for Electron (${sqlite.reason}).`);
  process.exit(1);
}

const playwright = ['playwright', 'test', '-c', 'test/desktop/playwright.config.ts'];
const needsDisplay = process.platform === 'linux' && !process.env.DISPLAY;
const [command, args] = needsDisplay ? ['xvfb-run', ['-a', 'npx', ...playwright]] : ['npx', playwright];
const r = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, PIER_SQLITE_BINDING: sqlite.path } });
if (r.error) console.error(`Could not run ${command}: ${r.error.message}`);
process.exit(r.status ?? 1);
