// Entry point the extension host calls for --extensionTestsPath: runs every *.test.js next to this file with
// mocha, inside the extension host (full `vscode` API), and writes the totals to a JSON result file that
// test/host/runTest.ts reads ($ZOOSCOPE_HOST_RESULT, default <repo>/.tmp/host-result.json).
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';

export interface HostResult { passed: number; failed: number; pending: number; failures: { test: string; error: string }[] }

export function resultFile(): string {
  return process.env.ZOOSCOPE_HOST_RESULT || path.resolve(__dirname, '../../../../.tmp/host-result.json');
}

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 30000, reporter: 'spec' });
  const grep = process.env.ZOOSCOPE_HOST_GREP;
  if (grep) mocha.grep(grep);
  for (const file of fs.readdirSync(__dirname).filter((f) => f.endsWith('.test.js')).sort()) {
    mocha.addFile(path.join(__dirname, file));
  }
  const result: HostResult = { passed: 0, failed: 0, pending: 0, failures: [] };
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      result.passed = runner.stats?.passes ?? 0;
      result.failed = failures;
      result.pending = runner.stats?.pending ?? 0;
      fs.mkdirSync(path.dirname(resultFile()), { recursive: true });
      fs.writeFileSync(resultFile(), JSON.stringify(result, null, 2) + '\n');
      if (failures > 0) reject(new Error(`${failures} host test(s) failed`));
      else resolve();
    });
    runner.on('fail', (test, error: Error) => {
      result.failures.push({ test: test.fullTitle(), error: error.message });
    });
  });
}
