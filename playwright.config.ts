// Browser end-to-end tests (test/e2e) in Debian's Chromium against the real server.
// Each worker starts its own server (test/e2e/fixtures.ts) on a temp SQLite database;
// the global setup only checks that the web client has been built.
import { defineConfig, devices } from '@playwright/test';

export default defineConfig({
  testDir: 'test/e2e',
  outputDir: 'test-results/playwright',
  globalSetup: './test/e2e/global-setup.ts',
  timeout: 120_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  // two at once on two cores: with more, Chromium's rendering makes the long journeys miss their timeout
  workers: 2,
  retries: 0,
  forbidOnly: true,
  reporter: [['list']],
  use: {
    ...devices['Desktop Chrome'],
    headless: true,
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    },
    viewport: { width: 1280, height: 900 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    acceptDownloads: true,
  },
});
