// Runs every *.e2e.js spec module next to this file, one test at a time. A spec module exports
// `tests: E2eTest[]` (or a default export). Prints `ok - name` / `not ok - name` per test; on failure saves
// test-results/screenshots/failure-<test>.png and the workbench logs under test-results/logs/<test>/.
// Last line: `e2e: N passed, N failed`. ZOOSCOPE_E2E_GREP=<regex> runs only matching tests.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { E2eContext, E2eTest, repoRoot, Workbench } from './workbench';

const DEFAULT_TIMEOUT_MS = 180000;

const slug = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

function loadTests(): E2eTest[] {
  const tests: E2eTest[] = [];
  const files = fs.readdirSync(__dirname).filter((f) => f.endsWith('.e2e.js')).sort();
  if (files.length === 0) tests.push({ name: 'find specs', run: () => Promise.reject(new Error(`no *.e2e.js in ${__dirname}`)) });
  for (const file of files) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const mod = require(path.join(__dirname, file)) as { tests?: E2eTest[]; default?: E2eTest[] };
      const list = mod.tests ?? mod.default;
      if (!Array.isArray(list)) throw new Error('exports no `tests` array');
      tests.push(...list);
    } catch (error) {
      tests.push({ name: `load ${file}`, run: () => Promise.reject(error) });
    }
  }
  const grep = process.env.ZOOSCOPE_E2E_GREP;
  return grep ? tests.filter((t) => new RegExp(grep).test(t.name)) : tests;
}

async function saveFailureEvidence(name: string, workbenches: Workbench[]): Promise<void> {
  for (const [i, wb] of workbenches.entries()) {
    const suffix = workbenches.length > 1 ? `-${i + 1}` : '';
    const shot = await wb.screenshot(`failure-${slug(name)}${suffix}`).catch(() => undefined);
    const logs = path.join(repoRoot, 'test-results', 'logs', `${slug(name)}${suffix}`);
    fs.rmSync(logs, { recursive: true, force: true });
    try { fs.cpSync(wb.server.logsDir, logs, { recursive: true }); } catch { /* no logs yet */ }
    console.log(`#   evidence: ${shot ? path.relative(repoRoot, shot) : '(no screenshot)'}, ${path.relative(repoRoot, logs)}/`);
    for (const e of wb.pageErrors.slice(0, 5)) console.log(`#   page error: ${e}`);
  }
}

async function runOne(test: E2eTest): Promise<boolean> {
  const opened: Workbench[] = [];
  const ctx: E2eContext = {
    zk: process.env.ZOOSCOPE_TEST_ZK,
    open: async (options) => {
      const wb = await Workbench.open(options);
      opened.push(wb);
      return wb;
    },
  };
  const started = Date.now();
  const timeoutMs = test.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      test.run(ctx),
      new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs); }),
    ]);
    console.log(`ok - ${test.name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    return true;
  } catch (error) {
    console.log(`not ok - ${test.name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
    for (const line of text.replace(/\x1b\[[0-9;]*m/g, '').split('\n').slice(0, 12)) console.log(`#   ${line}`);
    await saveFailureEvidence(test.name, opened);
    return false;
  } finally {
    clearTimeout(timer);
    for (const wb of opened) await wb.close().catch(() => undefined);
  }
}

async function main(): Promise<number> {
  let passed = 0;
  let failed = 0;
  for (const test of loadTests()) {
    if (await runOne(test)) passed++;
    else failed++;
  }
  console.log(`e2e: ${passed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

main().then((code) => process.exit(code), (error: unknown) => {
  console.error(error);
  console.log('e2e: 0 passed, 1 failed');
  process.exit(1);
});
