#!/usr/bin/env node
// Totals of node test runner TAP reports: `tap-totals.mjs LABEL FILE...` prints `LABEL: N passed, N failed`.
// A test that was cancelled (its hook or parent failed), skipped or left as todo did not pass, and the summary
// line must not let it vanish: it counts as failed, and a second line names how many of each kind there were.
// Exits 1 when a file holds no summary (its runner died before the end), so no result is never read as success.
import * as fs from 'node:fs';

const [label, ...files] = process.argv.slice(2);
if (!label || files.length === 0) {
  console.error('usage: tap-totals.mjs LABEL FILE...');
  process.exit(2);
}
const KINDS = ['pass', 'fail', 'cancelled', 'skipped', 'todo'];
const sum = Object.fromEntries(KINDS.map((k) => [k, 0]));
const missing = [];
for (const file of files) {
  let text = '';
  try { text = fs.readFileSync(file, 'utf8'); } catch { /* counted as missing below */ }
  // The runner's own summary is the unindented `# kind N` block at the end; subtests' lines are indented.
  const found = {};
  for (const line of text.split('\n')) {
    const m = /^# (pass|fail|cancelled|skipped|todo) (\d+)$/.exec(line);
    if (m) found[m[1]] = Number(m[2]);
  }
  if (found.pass === undefined || found.fail === undefined) { missing.push(file); continue; }
  for (const k of KINDS) sum[k] += found[k] ?? 0;
}
if (missing.length > 0) {
  console.error(`${label}: no test summary in ${missing.join(', ')} (its runner ended early)`);
  process.exit(1);
}
const notPassed = sum.cancelled + sum.skipped + sum.todo;
if (notPassed > 0) {
  console.log(`${label}: ${sum.cancelled} cancelled, ${sum.skipped} skipped, ${sum.todo} todo: counted as failed`);
}
console.log(`${label}: ${sum.pass} passed, ${sum.fail + notPassed} failed`);
