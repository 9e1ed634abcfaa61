import { configDefaults, defineConfig } from 'vitest/config';

/** Suites that replace a module with vi.mock: they need a module registry of their own. */
const mocking = ['apps/server/test/contract/route-table.test.ts', 'apps/console/src/api/request.test.ts'];

// Unit and integration suites: contract, server (real server, real HTTP, PGlite or
// TEST_DATABASE_URL), fleet simulator, and the console's pure modules.
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two files at a time on the 2-core CI machine: vitest's default (cores − 1) runs them one by
    // one, and a server suite spends much of its time waiting on sockets, timers and its database.
    // Every suite starts its own server on free ports with its own database, so files share nothing.
    maxWorkers: 2,
    // One migrated database per run; each server's fresh database is a copy of it.
    globalSetup: ['apps/server/test/database-template.ts'],
    reporters: ['default', './tools/summary-reporter.ts'],
    // (`include` is set per project: a project's list is added to the root's, not put in its place.)
    projects: [
      {
        extends: true,
        test: {
          name: 'suites',
          include: ['packages/*/test/**/*.test.ts', 'apps/*/test/**/*.test.ts', 'apps/console/src/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...mocking],
          // A worker imports the server once for all the files it runs (each import costs seconds):
          // suites start and close their own servers and keep no state in modules.
          isolate: false,
        },
      },
      { extends: true, test: { name: 'mocking', include: mocking } },
    ],
  },
});
