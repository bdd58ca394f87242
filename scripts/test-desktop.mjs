// `npm run test:desktop`: the Playwright `_electron` smoke test (test/desktop) when an
// Electron binary is installed; otherwise it says, visibly, that the test did NOT run
// and how to run it, and exits 0 (an offline install has no Electron binary). Needs
// `npm run build` first. On Linux without a display it runs under xvfb-run.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function electronExecutable() {
  try {
    const path = createRequire(import.meta.url)('electron');
    return typeof path === 'string' && existsSync(path) ? path : null;
  } catch {
    return null;
  }
}

if (electronExecutable() === null) {
  console.log(
    [
      '',
      '*** Desktop smoke test NOT RUN: no Electron binary is installed (an offline install, ELECTRON_SKIP_BINARY_DOWNLOAD=1). ***',
      '    To run it: `npm install electron` on a machine with internet (or unpack electron-v<version>-linux-x64.zip and set',
      '    ELECTRON_OVERRIDE_DIST_PATH), then `npm run build && npm run test:desktop`.',
      '',
    ].join('\n'),
  );
  process.exit(0);
}
if (!existsSync(join(root, 'dist', 'main', 'index.js'))) {
  console.error('dist/main/index.js is missing; run `npm run build` first.');
  process.exit(1);
}

const playwright = ['playwright', 'test', '-c', 'test/desktop/playwright.config.ts'];
const needsDisplay = process.platform === 'linux' && !process.env.DISPLAY;
const [command, args] = needsDisplay ? ['xvfb-run', ['-a', 'npx', ...playwright]] : ['npx', playwright];
const r = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
if (r.error) console.error(`Could not run ${command}: ${r.error.message}`);
process.exit(r.status ?? 1);
