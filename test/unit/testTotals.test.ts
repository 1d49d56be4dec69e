// The summary line CI reads must not let a test vanish: one that was cancelled, skipped, left todo or never ran
// counts as failed, in the node tiers (scripts/lib/tap-totals.mjs) and in the in-host mocha suite (hostTotals).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Mocha from 'mocha';
import { runCounted } from '../host/suite/hostTotals';

const root = path.resolve(__dirname, '../../..');
const tapTotals = path.join(root, 'scripts', 'lib', 'tap-totals.mjs');

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-totals-'));
}

/** The TAP report node's own runner writes for `source` (run as a child, as test-node.sh runs the tiers). */
function tapOf(dir: string, name: string, source: string): string {
  const file = path.join(dir, `${name}.test.js`);
  fs.writeFileSync(file, source);
  // Without NODE_TEST_CONTEXT: set by our own runner, it makes the child report to a parent runner, not in TAP.
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  const run = spawnSync(process.execPath, ['--test', '--test-reporter=tap', file], { encoding: 'utf8', env });
  const tap = path.join(dir, `${name}.tap`);
  fs.writeFileSync(tap, run.stdout);
  return tap;
}

function totals(...taps: string[]): { status: number | null; lines: string[] } {
  const run = spawnSync(process.execPath, [tapTotals, 'tier', ...taps], { encoding: 'utf8' });
  return { status: run.status, lines: `${run.stdout}${run.stderr}`.trim().split('\n') };
}

const PASSING = `const { test } = require('node:test'); test('a', () => {}); test('b', () => {});`;
const NOT_ALL_RAN = `
const { test, describe, before } = require('node:test');
test('passes', () => {});
test('skipped', { skip: true }, () => {});
test('todo', { todo: true }, () => {});
describe('a hook fails', () => {
  before(() => { throw new Error('no server'); });
  test('one', () => {});
  test('two', () => {});
});`;

test('node tiers: cancelled, skipped and todo tests count as failed in the summary line', () => {
  const dir = tempDir();
  try {
    const clean = totals(tapOf(dir, 'clean', PASSING));
    assert.deepEqual(clean, { status: 0, lines: ['tier: 2 passed, 0 failed'] });
    const partial = totals(tapOf(dir, 'partial', NOT_ALL_RAN), path.join(dir, 'clean.tap'));
    assert.equal(partial.status, 0);
    assert.deepEqual(partial.lines, ['tier: 2 cancelled, 1 skipped, 1 todo: counted as failed', 'tier: 3 passed, 4 failed']);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('node tiers: a report without its summary (the runner died) is no result', () => {
  const dir = tempDir();
  try {
    const tap = tapOf(dir, 'clean', PASSING);
    const cut = path.join(dir, 'cut.tap');
    fs.writeFileSync(cut, fs.readFileSync(tap, 'utf8').split('\n# tests')[0]);
    const result = totals(tap, cut);
    assert.equal(result.status, 1);
    assert.match(result.lines.join('\n'), /no test summary in .*cut\.tap/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('in-host suite: pending tests and tests a failed hook kept from running count as failed', async () => {
  const dir = tempDir();
  try {
    const file = path.join(dir, 'suite.test.js');
    fs.writeFileSync(file, `
describe('suite', () => {
  it('passes', () => {});
  it('fails', () => { throw new Error('no'); });
  it.skip('pending', () => {});
  describe('a hook fails', () => {
    before(() => { throw new Error('no server'); });
    it('one', () => {});
    it('two', () => {});
  });
});`);
    const mocha = new Mocha({ reporter: 'dot' });
    mocha.addFile(file);
    const result = await runCounted(mocha);
    assert.equal(result.passed, 1);
    assert.equal(result.pending, 1);
    assert.equal(result.notRun, 2);
    // 'fails' and the hook (mocha's own count), the pending test and the two that never ran.
    assert.equal(result.failed, 5);
    mocha.dispose();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
