// Runs the in-host mocha suite (test/host/suite) through @vscode/test-electron.
// With VSCODE_EXECUTABLE_PATH set (e.g. to test/host/codeShim.js) it uses that executable; unset, test-electron
// downloads VS Code as usual (desktops with network). Last line of output: `host: N passed, N failed`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';
import type { HostResult } from './suite/index';

const root = path.resolve(__dirname, '../../..');
// Per UI-test run (scripts/host/run-ui-tests.sh sets it), so two runs side by side never share a user-data dir.
const work = path.join(process.env.ZOOSCOPE_RUN_DIR || path.join(root, '.tmp'), 'host');

async function main(): Promise<number> {
  fs.rmSync(work, { recursive: true, force: true });
  const workspace = path.join(work, 'workspace');
  fs.mkdirSync(workspace, { recursive: true });
  const resultPath = path.join(work, 'result.json');
  let runError: unknown;
  try {
    await runTests({
      vscodeExecutablePath: process.env.VSCODE_EXECUTABLE_PATH || undefined,
      extensionDevelopmentPath: root,
      extensionTestsPath: path.join(__dirname, 'suite', 'index'),
      extensionTestsEnv: { ZOOSCOPE_HOST_RESULT: resultPath },
      launchArgs: [workspace, `--user-data-dir=${path.join(work, 'user-data')}`, `--extensions-dir=${path.join(work, 'extensions')}`,
        '--disable-extensions'],
    });
  } catch (error) {
    runError = error;
  }
  let result: HostResult | undefined;
  try {
    result = JSON.parse(fs.readFileSync(resultPath, 'utf8')) as HostResult;
  } catch {
    console.error(`host: no result file ${resultPath}${runError ? ` (${String(runError)})` : ''}`);
  }
  for (const f of result?.failures ?? []) console.error(`host failure: ${f.test}: ${f.error}`);
  const passed = result?.passed ?? 0;
  const failed = result ? result.failed : 1; // no result = the harness itself failed
  console.log(`host: ${passed} passed, ${failed} failed`);
  return failed === 0 && !runError ? 0 : 1;
}

main().then((code) => process.exit(code), (error: unknown) => {
  console.error(error);
  console.log('host: 0 passed, 1 failed');
  process.exit(1);
});
