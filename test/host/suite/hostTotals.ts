// Runs a mocha suite and counts it as the run's summary must: a test that did not pass is a failure, whether it
// failed, was left pending (skipped) or never ran because a hook before it failed.
import type Mocha from 'mocha';

export interface HostResult {
  passed: number;
  failed: number;
  pending: number;
  notRun: number;
  failures: { test: string; error: string }[];
}

export function runCounted(mocha: Mocha): Promise<HostResult> {
  const result: HostResult = { passed: 0, failed: 0, pending: 0, notRun: 0, failures: [] };
  let testFailures = 0;
  return new Promise((resolve) => {
    const runner = mocha.run((failures) => {
      // runner.total: the tests mocha meant to run (after --grep); failures: tests and hooks that failed.
      result.passed = runner.stats?.passes ?? 0;
      result.pending = runner.stats?.pending ?? 0;
      result.notRun = Math.max(0, runner.total - result.passed - result.pending - testFailures);
      result.failed = failures + result.pending + result.notRun;
      if (result.pending + result.notRun > 0) {
        result.failures.push({ test: '(suite)', error: `${result.pending} pending and ${result.notRun} never run: counted as failed` });
      }
      resolve(result);
    });
    runner.on('fail', (test, error: Error) => {
      if (test.type === 'test') testFailures++;
      result.failures.push({ test: test.fullTitle(), error: error.message });
    });
  });
}
