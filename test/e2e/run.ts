// Runs every *.e2e.js spec module next to this file, a file at a time. ZOOSCOPE_E2E_WORKERS=N runs N files side by
// side, each worker with its own code-server and browser (every test works in its own nodes of the shared
// ZooKeeper); one by default: `npm test` already keeps two cores busy with the node tiers beside this one, and there
// two workers gained nothing (one run on a loaded machine: 1,409 s for the e2e tests, against ~960 s one at a time). A spec module exports
// `tests: E2eTest[]` (or a default export), and `shareWorkbench = true` when its tests may reuse one workbench: a test
// asking for a workbench with the same options as the file's previous test gets that one, reset (Workbench.
// resetForNextTest), instead of a fresh one (starting one takes most of a short test's time). A test can override
// this with its own `shareWorkbench`. A failed test's workbench is never reused. Prints `ok - name` / `not ok - name` per test (a failure's
// report in one piece); on failure saves
// test-results/screenshots/failure-<test>.png and the workbench logs under test-results/logs/<test>/.
// Last line: `e2e: N passed, N failed`. ZOOSCOPE_E2E_GREP=<regex> runs only matching tests.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { E2eContext, E2eTest, repoRoot, Workbench } from './workbench';

const DEFAULT_TIMEOUT_MS = 180000;

const slug = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

/** A test and the spec file it came from, with whether it may reuse the file's shared workbench. */
interface LoadedTest { test: E2eTest; file: string; share: boolean }

/** The workbench a file's tests pass on to the next one, with the options it was opened with. */
interface SharedWorkbench { file: string; options: string; wb: Workbench }

/** What one worker keeps between tests: the workbench its current file's tests share. */
interface Worker { shared?: SharedWorkbench }

async function closeShared(worker: Worker): Promise<void> {
  const current = worker.shared;
  worker.shared = undefined;
  await current?.wb.close().catch(() => undefined);
}

function loadTests(): LoadedTest[] {
  const tests: LoadedTest[] = [];
  const failing = (file: string, name: string, error: unknown): LoadedTest =>
    ({ file, share: false, test: { name, run: () => Promise.reject(error) } });
  const files = fs.readdirSync(__dirname).filter((f) => f.endsWith('.e2e.js')).sort();
  if (files.length === 0) tests.push(failing('', 'find specs', new Error(`no *.e2e.js in ${__dirname}`)));
  for (const file of files) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const mod = require(path.join(__dirname, file)) as { tests?: E2eTest[]; default?: E2eTest[]; shareWorkbench?: boolean };
      const list = mod.tests ?? mod.default;
      if (!Array.isArray(list)) throw new Error('exports no `tests` array');
      tests.push(...list.map((test) => ({ test, file, share: test.shareWorkbench ?? mod.shareWorkbench === true })));
    } catch (error) {
      tests.push(failing(file, `load ${file}`, error));
    }
  }
  const grep = process.env.ZOOSCOPE_E2E_GREP;
  return grep ? tests.filter((t) => new RegExp(grep).test(t.test.name)) : tests;
}

async function saveFailureEvidence(name: string, workbenches: Workbench[], report: string[]): Promise<void> {
  for (const [i, wb] of workbenches.entries()) {
    const suffix = workbenches.length > 1 ? `-${i + 1}` : '';
    const shot = await wb.screenshot(`failure-${slug(name)}${suffix}`).catch(() => undefined);
    const logs = path.join(repoRoot, 'test-results', 'logs', `${slug(name)}${suffix}`);
    fs.rmSync(logs, { recursive: true, force: true });
    try { fs.cpSync(wb.server.logsDir, logs, { recursive: true }); } catch { /* no logs yet */ }
    report.push(`#   evidence: ${shot ? path.relative(repoRoot, shot) : '(no screenshot)'}, ${path.relative(repoRoot, logs)}/`);
    for (const e of wb.pageErrors.slice(0, 5)) report.push(`#   page error: ${e}`);
  }
}

/** The file's shared workbench, reset, when it was opened with `options`; else undefined (and it is closed). */
async function reuseShared(worker: Worker, file: string, options: string): Promise<Workbench | undefined> {
  const { shared } = worker;
  if (!shared || shared.file !== file || shared.options !== options) {
    await closeShared(worker);
    return undefined;
  }
  const { wb } = shared;
  try {
    await wb.resetForNextTest();
    return wb;
  } catch (error) {
    console.log(`#   shared workbench not reset (${error instanceof Error ? error.message.split('\n')[0] : String(error)}): a fresh one`);
    await closeShared(worker);
    return undefined;
  }
}

async function runOne(worker: Worker, { test, file, share }: LoadedTest): Promise<boolean> {
  const opened: Workbench[] = [];
  const ctx: E2eContext = {
    zk: process.env.ZOOSCOPE_TEST_ZK,
    open: async (options) => {
      const key = JSON.stringify(options ?? {});
      const reused = share && !opened.some((o) => o === worker.shared?.wb) ? await reuseShared(worker, file, key) : undefined;
      const wb = reused ?? await Workbench.open(options);
      opened.push(wb);
      if (share && !reused && !worker.shared) worker.shared = { file, options: key, wb };
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
    // Printed in one piece: the other worker's lines must not cut into a failure's report.
    const report = [`not ok - ${test.name} (${((Date.now() - started) / 1000).toFixed(1)} s)`];
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
    for (const line of text.replace(/\x1b\[[0-9;]*m/g, '').split('\n').slice(0, 12)) report.push(`#   ${line}`);
    await saveFailureEvidence(test.name, opened, report);
    console.log(report.join('\n'));
    if (opened.some((wb) => wb === worker.shared?.wb)) await closeShared(worker);
    return false;
  } finally {
    clearTimeout(timer);
    for (const wb of opened) if (wb !== worker.shared?.wb) await wb.close().catch(() => undefined);
  }
}

/** The tests in spec files, one list per file, in the order loaded. */
function byFile(tests: LoadedTest[]): LoadedTest[][] {
  const files = new Map<string, LoadedTest[]>();
  for (const test of tests) {
    const list = files.get(test.file);
    if (list) list.push(test);
    else files.set(test.file, [test]);
  }
  return [...files.values()];
}

async function main(): Promise<number> {
  let passed = 0;
  let failed = 0;
  const queue = byFile(loadTests());
  const workers = Math.max(1, Math.floor(Number(process.env.ZOOSCOPE_E2E_WORKERS ?? 1)) || 1);
  // A worker runs a whole file at a time, so a file's tests keep sharing their workbench and their order.
  const work = async () => {
    const worker: Worker = {};
    for (let tests = queue.shift(); tests; tests = queue.shift()) {
      for (const test of tests) {
        if (await runOne(worker, test)) passed++;
        else failed++;
      }
      await closeShared(worker);
    }
  };
  await Promise.all(Array.from({ length: Math.min(workers, queue.length) }, work));
  console.log(`e2e: ${passed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

main().then((code) => process.exit(code), (error: unknown) => {
  console.error(error);
  console.log('e2e: 0 passed, 1 failed');
  process.exit(1);
});
