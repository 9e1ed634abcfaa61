import { defineConfig } from 'vitest/config';

// Browser suites: Debian's Chromium driven by playwright-core against a real server
// serving the production console build. Two files at a time on the 2-core CI machine: each file
// starts its own server (free ports, its own database copy, temporary data dirs) and its own
// Chromium with a fresh profile, so files share nothing but the read-only console build.
export default defineConfig({
  test: {
    include: ['apps/console/e2e/**/*.e2e.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    maxWorkers: 2,
    // Each suite's server starts from one migrated database per run, as in the server suites.
    globalSetup: ['apps/server/test/database-template.ts'],
    reporters: ['default', './tools/summary-reporter.ts'],
  },
});
