// `zooscope locks` lock-history arguments and --replay, without a server: usage errors exit 2 before anything
// connects; a recording with a torn last line replays with a note; hostile names come out visible.
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Writable } from 'node:stream';
import { durationOf, UsageError } from '../../src/cli/args';
import { commandHelp } from '../../src/cli/command';
import { locksCommand } from '../../src/cli/commands/locks/locks';
import { runZooscope } from '../../src/cli/dispatch';
import { createOutput } from '../../src/cli/output';
import { DEFAULT_RECORDING_LIMIT_BYTES, LockRecorder, RecordingWriter } from '../../src/zk/history';
import { snapshot, T0 } from '../support/fixtures/lockHistoryFixtures';

function sink(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({ write(chunk: Buffer, _enc, done) { chunks.push(chunk.toString()); done(); } });
  return { stream, text: () => chunks.join('') };
}

async function locks(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = sink();
  const stderr = sink();
  const out = createOutput({ stdout: stdout.stream, stderr: stderr.stream });
  const code = await runZooscope(['locks', ...args], out, 'test');
  out.dispose();
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

describe('zooscope locks: history arguments', () => {
  test('durations: seconds by default, s/m/h/d suffixes, bounds refused', () => {
    assert.equal(durationOf('90', '--for', 1000, 10 ** 9), 90_000);
    assert.equal(durationOf('15m', '--for', 1000, 10 ** 9), 900_000);
    assert.equal(durationOf('1.5h', '--for', 1000, 10 ** 9), 5_400_000);
    assert.throws(() => durationOf('0.5', '--for', 1000, 10 ** 9), UsageError);
    assert.throws(() => durationOf('ten', '--for', 1000, 10 ** 9), UsageError);
    assert.throws(() => durationOf(undefined, '--for', 1000, 10 ** 9), UsageError);
  });

  test('flags of the history without --watch, or --replay with a server, exit 2 before connecting', async () => {
    for (const args of [
      ['127.0.0.1:1', '/a', '--for', '5s'],
      ['127.0.0.1:1', '/a', '--record', 'x.jsonl'],
      ['127.0.0.1:1', '/a', '--watch', '--record-limit', '1'],
      ['127.0.0.1:1', '/a', '--watch', '--record', 'x.jsonl', '--record-limit', '0.001'],
      ['127.0.0.1:1', '/a', '--replay', 'x.jsonl'],
      ['--replay', 'x.jsonl', '--watch'],
      ['127.0.0.1:1', '/a', '--watch', '--trace'],
    ]) {
      const { code, stderr } = await locks(args);
      assert.equal(code, 2, `${args.join(' ')}: ${stderr}`);
      assert.match(stderr, /^zooscope locks: /);
    }
  });

  test('--record has a size limit when none is given: the writer rotates at the default, and the usage says it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-record-'));
    // What runWatch builds for `--record <file>` without --record-limit: no maxBytes.
    const unlimitedByDefault = new RecordingWriter(path.join(dir, 'a.jsonl'), { maxBytes: undefined, root: '/a' });
    unlimitedByDefault.close();
    assert.equal(unlimitedByDefault.maxBytes, DEFAULT_RECORDING_LIMIT_BYTES);
    assert.ok(DEFAULT_RECORDING_LIMIT_BYTES > 0 && DEFAULT_RECORDING_LIMIT_BYTES <= 1024 ** 3, `${DEFAULT_RECORDING_LIMIT_BYTES} bytes`);
    const explicit = new RecordingWriter(path.join(dir, 'b.jsonl'), { maxBytes: 4096 });
    explicit.close();
    assert.equal(explicit.maxBytes, 4096);
    assert.match(commandHelp(locksCommand), new RegExp(`--record-limit.*${DEFAULT_RECORDING_LIMIT_BYTES / 1024 / 1024} MiB when not given`));
  });

  test('--replay: the figures of a recording; a torn last line is noted, hostile names shown visibly', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-replay-'));
    const file = path.join(dir, 'r.jsonl');
    const recorder = new LockRecorder();
    const writer = new RecordingWriter(file, { now: () => T0 });
    recorder.onEvent((e) => writer.write(e));
    const lock = '/L\u202eevil';
    recorder.observe(snapshot(0, {}));
    recorder.observe(snapshot(10, { [lock]: [{ name: 'a', session: '0xa', since: 5, holding: true }] }));
    recorder.observe(snapshot(50, { [lock]: [] }));
    writer.close();
    fs.appendFileSync(file, '{"type":"open","interval":{"id":');
    const { code, stdout, stderr } = await locks(['--replay', file]);
    assert.equal(code, 0, stderr);
    assert.match(stderr, /cut line/);
    assert.match(stdout, /\/L\[U\+202E\]evil/);
    assert.doesNotMatch(stdout, /\u202e/);
    assert.match(stdout, /acquisitions\s+1/);
    assert.match(stdout, /hold\s+median 45ms/);
    const json = await locks(['--replay', file, '--json']);
    const parsed = JSON.parse(json.stdout) as { figures: { lock: string; acquisitions: number }[] };
    assert.deepEqual(parsed.figures.map((f) => [f.lock, f.acquisitions]), [[lock, 1]]);
    const trace = path.join(dir, 'r.trace.json');
    const traced = await locks(['--replay', file, '--trace', trace]);
    assert.equal(traced.code, 0, traced.stderr);
    const events = (JSON.parse(fs.readFileSync(trace, 'utf8')) as { traceEvents: { ph: string; name: string; args?: { lock?: string } }[] }).traceEvents;
    const hold = events.find((e) => e.ph === 'X' && e.name === 'hold');
    assert.equal(hold?.args?.lock, '/L[U+202E]evil', 'names in the trace through the visible-text rules');
    assert.equal(fs.statSync(trace).mode & 0o777, 0o600);
    const missing = await locks(['--replay', path.join(dir, 'none.jsonl')]);
    assert.equal(missing.code, 1);
  });

  test('--replay of a rotated recording reads <file>.1 and <file> as one history', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-replay-'));
    const file = path.join(dir, 'night.jsonl');
    const recorder = new LockRecorder();
    const writer = new RecordingWriter(file, { now: () => T0, maxBytes: 2000 });
    recorder.onEvent((e) => writer.write(e));
    recorder.observe(snapshot(0, {}));
    for (let n = 1; n <= 6; n++) recorder.observe(snapshot(10 * n, { '/L': [{ name: `n${n}`, session: '0xa', since: 10 * n, holding: true, held: [10 * n, true] }] }));
    recorder.observe(snapshot(70, { '/L': [] }));
    writer.close();
    assert.equal(writer.rotations, 1, 'rotated once');
    const json = await locks(['--replay', file, '--json']);
    assert.equal(json.code, 0, json.stderr);
    const parsed = JSON.parse(json.stdout) as { figures: { lock: string; acquisitions: number }[] };
    assert.deepEqual(parsed.figures.map((f) => [f.lock, f.acquisitions]), [['/L', 6]]);
    const text = await locks(['--replay', file]);
    assert.match(text.stdout, /replaying .*night\.jsonl\.1 and .*night\.jsonl/);
  });
});
