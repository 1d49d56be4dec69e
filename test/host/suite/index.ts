// Entry point the extension host calls for --extensionTestsPath: runs every *.test.js next to this file with
// mocha, inside the extension host (full `vscode` API), and writes the totals to a JSON result file that
// test/host/runTest.ts reads ($ZOOSCOPE_HOST_RESULT, default <repo>/.tmp/host-result.json).
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';
import { runCounted } from './hostTotals';

export type { HostResult } from './hostTotals';

export function resultFile(): string {
  return process.env.ZOOSCOPE_HOST_RESULT || path.resolve(__dirname, '../../../../.tmp/host-result.json');
}

export async function run(): Promise<void> {
  // A guard against a test that hangs (the longest passes in ~10 s on a quiet machine), wide enough for one that is
  // only slow: the in-host tests run beside the e2e tests and the node tiers on two cores.
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 120000, reporter: 'spec' });
  const grep = process.env.ZOOSCOPE_HOST_GREP;
  if (grep) mocha.grep(grep);
  for (const file of fs.readdirSync(__dirname).filter((f) => f.endsWith('.test.js')).sort()) {
    mocha.addFile(path.join(__dirname, file));
  }
  const result = await runCounted(mocha);
  fs.mkdirSync(path.dirname(resultFile()), { recursive: true });
  fs.writeFileSync(resultFile(), JSON.stringify(result, null, 2) + '\n');
  if (result.failed > 0) throw new Error(`${result.failed} host test(s) failed or did not run`);
}
