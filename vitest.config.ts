import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/api/**/*.test.ts'],
    pool: 'forks',
    // most files wait on servers, daemons and sockets rather than the CPU: two at once on two cores;
    // more make the tests that time a server's answers miss their bounds
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    reporters: ['default'],
  },
});
