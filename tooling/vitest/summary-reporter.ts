import type { Reporter, TestModule } from 'vitest/node';

/** How many of the slowest test files the summary names (where the suite's time goes). */
const SLOWEST = 15;

/**
 * Prints the slowest test files (wall time of each file's run, setup included), then one plain
 * closing line, `tests: N passed, N failed, N skipped`, after vitest's own summary, so CI logs carry
 * a runner-independent count and where the time of a run went.
 */
export default class SummaryReporter implements Reporter {
  /** Wall time of each file, from its start to its end as reported (hooks and setup included). */
  readonly #started = new Map<string, number>();
  readonly #took = new Map<string, number>();

  onTestModuleStart(module: TestModule): void {
    this.#started.set(module.moduleId, performance.now());
  }

  onTestModuleEnd(module: TestModule): void {
    const started = this.#started.get(module.moduleId);
    if (started !== undefined) this.#took.set(module.moduleId, performance.now() - started);
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') failed += 1;
        else skipped += 1;
      }
      if (module.state() === 'failed' && module.children.size === 0) failed += 1;
    }
    const timed = testModules
      .map((module) => ({ file: module.relativeModuleId, ms: this.#took.get(module.moduleId) ?? Number.NaN }))
      .filter((entry) => Number.isFinite(entry.ms))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, testModules.length > SLOWEST ? SLOWEST : 0);
    if (timed.length > 0) {
      process.stdout.write('\nslowest test files:\n');
      for (const entry of timed)
        process.stdout.write(`  ${(entry.ms / 1000).toFixed(1).padStart(6)} s  ${entry.file}\n`);
    }
    process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
