// The fixtures of specs that need a real music player daemon: one daemon per worker
// (test/support/mpd.ts), and the worker's server configured to use it.
import type { MpdInstance } from '../support/mpd.js';
import { startMpd } from '../support/mpd.js';
import { playerConfig } from '../support/mpd-server.js';
import type { Json } from '../support/server.js';
import { test as base } from './fixtures.js';

export const test = base.extend<object, { mpd: MpdInstance }>({
  mpd: [
    // Playwright reads the fixtures a function needs from its destructuring pattern: none here.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const mpd = await startMpd();
      await use(mpd);
      await mpd.dispose();
    },
    { scope: 'worker', timeout: 60_000 },
  ],
  serverConfig: [async ({ mpd }, use) => use(playerConfig(mpd) as Json), { scope: 'worker' }],
});
