import { defineConfig } from 'vitest/config';

// Browser suites: Debian's Chromium driven by playwright-core against a real server
// serving the production console build. One file at a time: two cores.
export default defineConfig({
  test: {
    include: ['apps/console/e2e/**/*.e2e.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    // Each suite's server starts from one migrated database per run, as in the server suites.
    globalSetup: ['apps/server/test/database-template.ts'],
    reporters: ['default', './tools/summary-reporter.ts'],
  },
});
