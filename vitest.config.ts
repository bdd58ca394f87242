import { defineConfig } from 'vitest/config';

// Files that replace a module (vi.mock) or turn on process-wide state of one (young
// collections): each gets a module registry of its own.
const ownModules = ['test/api/stores/dropped-bytes.test.ts', 'test/unit/process/young-collection.test.ts'];
const all = ['test/unit/**/*.test.ts', 'test/api/**/*.test.ts'];

export default defineConfig({
  test: {
    pool: 'forks',
    // most files wait on servers, daemons and sockets rather than the CPU: two at once on two cores;
    // more make the tests that time a server's answers miss their bounds
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    reporters: ['default'],
    projects: [
      // Files share their worker's modules: importing the server once per worker instead of
      // once per file takes the suite from about 590 to 345 s. Each file starts its own
      // servers, databases and folders, so no state passes from one file to the next.
      { extends: true, test: { name: 'shared', include: all, exclude: ownModules, isolate: false } },
      { extends: true, test: { name: 'isolated', include: ownModules, isolate: true } },
    ],
  },
});
