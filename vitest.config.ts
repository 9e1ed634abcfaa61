import { defineConfig } from 'vitest/config';

// Unit and integration suites: contract, server (real server, real HTTP, PGlite or
// TEST_DATABASE_URL), fleet simulator, and the console's pure modules.
export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.ts', 'apps/*/test/**/*.test.ts', 'apps/console/src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One migrated database per run; each server's fresh database is a copy of it.
    globalSetup: ['apps/server/test/database-template.ts'],
    reporters: ['default', './tools/summary-reporter.ts'],
  },
});
