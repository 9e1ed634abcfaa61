import type { Reporter, TestCase, TestModule } from 'vitest/node';

/**
 * Ends every vitest run with the ten slowest tests (where the time of a run goes) and one plain
 * line, "Tests: N passed, N failed, N skipped", so CI reads the outcome the same way for the
 * server, console and browser suites.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>) {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    const timed: Array<{ test: TestCase; ms: number }> = [];
    for (const module of modules) {
      // A file that failed outside its tests (a set-up hook, an import) counts once: its tests are only skipped.
      if (module.state() === 'failed' && ![...module.children.allTests()].some((t) => t.result().state === 'failed')) failed += 1;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') failed += 1;
        else skipped += 1;
        const ms = test.diagnostic()?.duration;
        if (ms !== undefined) timed.push({ test, ms });
      }
    }
    const slowest = timed.sort((a, b) => b.ms - a.ms).slice(0, 10);
    if (slowest.length > 0) {
      process.stdout.write('\nSlowest tests:\n');
      for (const { test, ms } of slowest) {
        process.stdout.write(`  ${(ms / 1000).toFixed(1).padStart(6)} s  ${test.module.moduleId.replace(process.cwd() + '/', '')} > ${test.fullName}\n`);
      }
    }
    process.stdout.write(`\nTests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
