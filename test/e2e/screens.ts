// Where the screenshots shown in the docs go. A test run writes them under test-results/,
// so `npm test` leaves the working tree as it found it; `npm run screens` sets
// PIER_SCREENS=docs and runs the specs that take them, refreshing docs/screens/ on purpose.
import { join } from 'node:path';

/** `docs/screens/<name>.png` with PIER_SCREENS=docs, else `test-results/screens/<name>.png`. */
export const screenPath = (name: string): string =>
  join(process.env['PIER_SCREENS'] === 'docs' ? 'docs/screens' : 'test-results/screens', `${name}.png`);
