import { defineConfig } from 'vitest/config';

// Browser suites: Debian's Chromium driven by playwright-core against a real server
// serving the production console build. One file at a time: two cores.
export default defineConfig({
  test: {
    include: ['apps/console/e2e/**/*.e2e.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    reporters: ['default', './tools/summary-reporter.ts'],
  },
});
