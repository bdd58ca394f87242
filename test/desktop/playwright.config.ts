// The desktop smoke test: Playwright's `_electron` against the built app (dist/).
// Run through `npm run test:desktop` (scripts/test-desktop.mjs), which reports that it
// did not run when no Electron binary is installed.
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  outputDir: '../../test-results/desktop',
  timeout: 120_000,
  expect: { timeout: 20_000 },
  workers: 1,
  retries: 0,
  forbidOnly: true,
  reporter: [['list']],
});
