import { before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { LockHistory, LockRecorder, parseRecording, writeTraceFromHistory, writeTraceFromRecording, readRecording, readRotatedRecording, recordingFiles, RecordingFormatError, RecordingWriter } from '../../src/zk/history';
import { snapshot, T0 } from '../support/fixtures/lockHistoryFixtures';

function tempFile(name: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-history-'));
  return path.join(dir, name);
}

/** Three hand-overs on /L and one hold on /M, recorded into `file`. */
function record(file: string, maxBytes = 0): { recorder: LockRecorder; writer: RecordingWriter } {
  const recorder = new LockRecorder();
  const writer = new RecordingWriter(file, { maxBytes, now: () => T0 });
  recorder.onEvent((event) => writer.write(event));
  recorder.observe(snapshot(0, {}));
  recorder.observe(snapshot(100, { '/L': [{ name: 'a', session: '0xa', since: 90, holding: true }, { name: 'b', session: '0xb', since: 95 }], '/M': [{ name: 'm', session: '0xa', since: 99, holding: true }] }));
  recorder.observe(snapshot(200, { '/L': [{ name: 'b', session: '0xb', since: 95, holding: true, held: [200, true] }, { name: 'c', session: '0xc', since: 150 }], '/M': [{ name: 'm', session: '0xa', since: 99, holding: true }] }));
  // Tables asked for at 250 know c's session (its node from 150) nowhere: not proof of its end (not claimed).
  recorder.observe(snapshot(300, { '/L': [{ name: 'c', session: '0xc', since: 150, holding: true, held: [300, true] }], '/M': [{ name: 'm', session: '0xa', since: 99, holding: true }] }, ['0xc']), T0 + 300, T0 + 250);
  recorder.observe(snapshot(400, { '/L': [], '/M': [{ name: 'm', session: '0xa', since: 99, holding: true }] }));
  return { recorder, writer };
}

const ids = (intervals: Iterable<{ id: number; kind: string; node: string; end?: number; ended?: string }>) =>
  [...intervals].map((i) => `${i.id} ${i.kind} ${i.node} ${i.end === undefined ? 'open' : i.end - T0} ${i.ended ?? ''}`).sort();

describe('lock history: recording file', () => {
  test('a recording loads back into the same history, end reasons learnt later included', () => {
    const file = tempFile('locks.jsonl');
    const { recorder, writer } = record(file);
    writer.close();
    const loaded = readRecording(file);
    assert.equal(loaded.tornLastLine, false);
    assert.equal(loaded.startedAt, T0);
    assert.deepEqual(ids(loaded.history.closed), ids(recorder.history.closed));
    assert.deepEqual(ids(loaded.history.open.values()), ids(recorder.history.open.values()));
    assert.ok(loaded.history.closed.some((i) => i.node === 'c' && i.kind === 'hold' && i.ended === 'unknown'));
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
  });

  test('a last line cut short (killed mid-write) is left out; a bad line inside is an error naming it', () => {
    const file = tempFile('locks.jsonl');
    const { recorder, writer } = record(file);
    writer.close();
    const whole = fs.readFileSync(file, 'utf8');
    const torn = parseRecording(whole + '{"type":"close","interval":{"id":9');
    assert.equal(torn.tornLastLine, true);
    assert.deepEqual(ids(torn.history.closed), ids(recorder.history.closed));
    const lines = whole.split('\n');
    lines[2] = '{"type":';
    assert.throws(() => parseRecording(lines.join('\n')), (e: Error) => e instanceof RecordingFormatError && /line 3/.test(e.message));
    assert.throws(() => parseRecording('{"type":"open"}\n'), RecordingFormatError);
  });

  test('past the size limit the file rotates to <file>.1, and each file loads on its own with what was open', () => {
    const file = tempFile('locks.jsonl');
    const { recorder, writer } = record(file, 1200);
    writer.close();
    assert.ok(writer.rotations >= 1, 'rotated');
    assert.ok(fs.statSync(file).size <= 1200);
    const current = readRecording(file);
    const previous = readRecording(`${file}.1`);
    // The hold on /M opened before the rotation and is still open: the new file carries it.
    assert.ok([...current.history.open.values()].some((i) => i.lock === '/M' && i.node === 'm'));
    const closedInBoth = new Set([...previous.history.closed, ...current.history.closed].map((i) => i.id));
    for (const i of current.history.closed) assert.ok(recorder.history.closed.some((r) => r.id === i.id));
    assert.ok(closedInBoth.size >= 1);
  });

  test('a rotated recording (<file>.1 then <file>) loads as one history: every interval once, as recorded', async () => {
    const file = tempFile('locks.jsonl');
    const { recorder, writer } = record(file, 2000);
    writer.close();
    assert.equal(writer.rotations, 1, 'rotated once: the two files hold everything recorded');
    assert.deepEqual(recordingFiles(file), [`${file}.1`, file]);
    const both = readRotatedRecording(file);
    assert.equal(both.startedAt, T0);
    assert.deepEqual(ids(both.history.closed), ids(recorder.history.closed));
    assert.deepEqual(ids(both.history.open.values()), ids(recorder.history.open.values()));
    // The trace streamed from both files has every interval once.
    const chunks: string[] = [];
    const streamed = await writeTraceFromRecording(recordingFiles(file), (chunk) => { chunks.push(chunk); });
    assert.equal(streamed.intervals, recorder.history.closed.length + recorder.history.open.size);
    const events = (JSON.parse(chunks.join('')) as { traceEvents: TraceEvent[] }).traceEvents;
    assert.equal(events.filter((e) => e.ph === 'X' && (e.name === 'hold' || e.name === 'wait')).length, streamed.intervals);
    // Without a rotation it is the one file.
    const single = tempFile('single.jsonl');
    record(single).writer.close();
    assert.deepEqual(recordingFiles(single), [single]);
  });
});

interface TraceEvent { ph: string; name: string; pid: number; tid: number; ts: number; dur?: number; id?: number; bp?: string; args?: Record<string, unknown> }

describe('lock history: Trace Event Format', () => {
  const { recorder } = record(tempFile('trace-source.jsonl'));
  recorder.gapStarted(T0 + 410);
  recorder.gapEnded(T0 + 420);
  let events: TraceEvent[] = [];
  let complete: TraceEvent[] = [];
  before(async () => {
    const chunks: string[] = [];
    await writeTraceFromHistory(recorder.history, (chunk) => { chunks.push(chunk); }, { now: T0 + 500 });
    events = (JSON.parse(chunks.join('')) as { traceEvents: TraceEvent[] }).traceEvents;
    complete = events.filter((e) => e.ph === 'X' && e.name !== 'gap');
  });

  test('every event has ph, pid, tid and ts in µs; holds and waits are complete events with their args', () => {
    for (const e of events) {
      assert.equal(typeof e.ph, 'string');
      assert.ok(Number.isInteger(e.pid) && Number.isInteger(e.tid), JSON.stringify(e));
      if (e.ph !== 'M') assert.ok(Number.isInteger(e.ts), JSON.stringify(e));
    }
    assert.deepEqual([...new Set(complete.map((e) => e.name))].sort(), ['hold', 'wait']);
    for (const e of complete) {
      assert.ok(Number.isInteger(e.dur) && (e.dur ?? -1) >= 0);
      assert.ok(e.ts >= T0 * 1000, 'wall-clock µs');
      for (const key of ['lock', 'node', 'session', 'exact']) assert.ok(key in (e.args ?? {}), key);
      assert.match(String(e.args?.session), /^0x[0-9a-f]+$/);
    }
    const bHold = complete.find((e) => e.name === 'hold' && e.args?.node === 'b');
    assert.deepEqual([bHold?.ts, bHold?.dur], [(T0 + 200) * 1000, 100 * 1000]);
    const names = events.filter((e) => e.ph === 'M').map((e) => e.args?.name);
    assert.ok(names.includes('/L') && names.includes('/M') && names.includes('monitor'));
    assert.ok(events.some((e) => e.ph === 'X' && e.name === 'gap'));
    assert.ok(events.some((e) => e.ph === 'C' && e.name === 'queue length'));
    assert.ok(!events.some((e) => e.ph === 'i' && e.name === 'session lost'), 'no session loss is claimed');
  });

  test('no two complete events of a lane overlap, and every lane has a name', () => {
    const lanes = new Map<string, TraceEvent[]>();
    for (const e of complete) lanes.set(`${e.pid}/${e.tid}`, [...(lanes.get(`${e.pid}/${e.tid}`) ?? []), e]);
    const named = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name').map((e) => `${e.pid}/${e.tid}`));
    for (const [lane, list] of lanes) {
      assert.ok(named.has(lane), `lane ${lane} named`);
      list.sort((a, b) => a.ts - b.ts);
      for (let k = 1; k < list.length; k++) assert.ok(list[k - 1].ts + (list[k - 1].dur ?? 0) <= list[k].ts, `overlap on ${lane}`);
    }
  });

  test('intervals summarised out of memory show as one span per lock with their counts', async () => {
    const history = new LockHistory(10);
    for (let n = 0; n < 30; n++) {
      history.addClosed({ id: history.newId(), kind: 'hold', lock: '/S', node: `n${n}`, participant: 'exclusive', session: '0x1', start: T0 + n * 10, startExact: true, end: T0 + n * 10 + 5, endExact: true, ended: 'released' });
    }
    const text: string[] = [];
    await writeTraceFromHistory(history, (chunk) => { text.push(chunk); }, { now: T0 + 1000 });
    const all = (JSON.parse(text.join('')) as { traceEvents: TraceEvent[] }).traceEvents;
    const summarised = all.filter((e) => e.name === 'summarised');
    assert.equal(summarised.length, 1);
    assert.equal(Number(summarised[0].args?.holds) + all.filter((e) => e.ph === 'X' && e.name === 'hold').length, 30);
  });

  test('hand-over flows go from the end of a real hold to the start of the next hold of the same lock', () => {
    const starts = events.filter((e) => e.ph === 's');
    assert.equal(starts.length, 2, 'a → b and b → c on /L');
    const holds = complete.filter((e) => e.name === 'hold');
    for (const s of starts) {
      const f = events.find((e) => e.ph === 'f' && e.id === s.id);
      assert.ok(f && f.bp === 'e');
      const from = holds.find((h) => h.pid === s.pid && h.tid === s.tid && h.ts <= s.ts && s.ts < h.ts + (h.dur ?? 0));
      const to = holds.find((h) => h.pid === f.pid && h.tid === f.tid && h.ts === f.ts);
      assert.ok(from && to, 'both ends bind to holds');
      assert.equal(from.pid, to.pid);
      assert.notEqual(from.args?.node, to.args?.node);
    }
  });
});

describe('lock history: Trace Event Format streamed from a recording', () => {
  test('the same holds, waits and hand-overs as from memory; lanes never overlap; a torn last line is left out', async () => {
    const file = tempFile('stream.jsonl');
    const { recorder, writer } = record(file);
    writer.close();
    fs.appendFileSync(file, '{"type":"close","interval":{"id":');
    const fromMemory: string[] = [];
    await writeTraceFromHistory(recorder.history, (chunk) => { fromMemory.push(chunk); }, { now: T0 + 400 });
    const streamed: string[] = [];
    const result = await writeTraceFromRecording(file, (chunk) => { streamed.push(chunk); });
    assert.equal(result.tornLastLine, true);
    const memoryEvents = (JSON.parse(fromMemory.join('')) as { traceEvents: TraceEvent[] }).traceEvents;
    const streamEvents = (JSON.parse(streamed.join('')) as { traceEvents: TraceEvent[] }).traceEvents;
    const key = (e: TraceEvent) => `${e.name} ${String(e.args?.lock)} ${String(e.args?.node)} ${e.ts} ${e.dur} ${String(e.args?.ended)} ${String(e.args?.exact)}`;
    const slices = (events: TraceEvent[]) => events.filter((e) => e.ph === 'X' && (e.name === 'hold' || e.name === 'wait')).map(key).sort();
    assert.deepEqual(slices(streamEvents), slices(memoryEvents));
    assert.equal(streamEvents.filter((e) => e.ph === 's').length, memoryEvents.filter((e) => e.ph === 's').length);
    assert.ok(!streamEvents.some((e) => e.ph === 'i' && e.name === 'session lost'));
    const lanes = new Map<string, TraceEvent[]>();
    for (const e of streamEvents.filter((x) => x.ph === 'X')) lanes.set(`${e.pid}/${e.tid}`, [...(lanes.get(`${e.pid}/${e.tid}`) ?? []), e]);
    const named = new Set(streamEvents.filter((e) => e.ph === 'M' && e.name === 'thread_name').map((e) => `${e.pid}/${e.tid}`));
    for (const [lane, list] of lanes) {
      assert.ok(named.has(lane), `lane ${lane} named`);
      list.sort((a, b) => a.ts - b.ts);
      for (let k = 1; k < list.length; k++) assert.ok(list[k - 1].ts + (list[k - 1].dur ?? 0) <= list[k].ts, `overlap on ${lane}`);
    }
  });

  test('lanes are reused once their participant has left: 1,000 hand-overs take two lanes, not 1,000', async () => {
    const file = tempFile('many.jsonl');
    const recorder = new LockRecorder();
    const writer = new RecordingWriter(file, { now: () => T0 });
    recorder.onEvent((event) => writer.write(event));
    recorder.observe(snapshot(0, {}));
    for (let n = 1; n <= 1000; n++) {
      recorder.observe(snapshot(n * 10, { '/L': [{ name: `n${n}`, session: '0xa', since: n * 10 - 5, holding: true, held: [n * 10 - 5, true] }] }));
    }
    writer.close();
    const chunks: string[] = [];
    const result = await writeTraceFromRecording(file, (chunk) => { chunks.push(chunk); });
    const events = (JSON.parse(chunks.join('')) as { traceEvents: TraceEvent[] }).traceEvents;
    assert.equal(result.intervals, 1000);
    const lanes = new Set(events.filter((e) => e.ph === 'X' && e.name === 'hold').map((e) => e.tid));
    assert.ok(lanes.size <= 2, `${lanes.size} lanes`);
    assert.equal(events.filter((e) => e.ph === 's').length, 999);
  });
});
