// The panel's Export Trace streams a large history through the one trace writer: what waits in the file's stream
// never grows past about one chunk however long the history, and the text is the Trace Event JSON Perfetto opens.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { once } from 'node:events';
import { Writable } from 'node:stream';
import { writeTraceFromHistory } from '../../src/zk/history';
import { CancelledError } from '../../src/zk/history/historyFiles';
import { chainHistory } from '../support/fixtures/timelineFixtures';

/** A file stream that takes its time: each chunk is written a turn of the event loop later. */
function slowWritable(): { stream: Writable; written: () => { bytes: number; slices: number; head: string; tail: string } } {
  let bytes = 0;
  let slices = 0;
  let head = '';
  let tail = '';
  const stream = new Writable({
    highWaterMark: 16 * 1024,
    decodeStrings: false,
    write(chunk: string, _encoding, done) {
      bytes += Buffer.byteLength(chunk);
      // Chunks end at event boundaries: each hold or wait is whole in one chunk.
      slices += chunk.split('"ph":"X","name":"hold"').length - 1 + chunk.split('"ph":"X","name":"wait"').length - 1;
      if (head.length < 64) head += chunk.slice(0, 64);
      tail = (tail + chunk).slice(-16);
      setImmediate(done);
    },
  });
  return { stream, written: () => ({ bytes, slices, head, tail }) };
}

test('a 200,000-interval history is exported as a stream: the bytes waiting to be written stay under one chunk or so', async () => {
  const history = chainHistory({ nodes: 100_000, locks: 1, sessions: 50, lastOpen: true });
  const intervals = history.closed.length + history.open.size;
  assert.ok(intervals >= 199_000, `${intervals} intervals`);
  const sink = slowWritable();
  let maxPending = 0;
  const result = await writeTraceFromHistory(history, (chunk) => {
    const ready = sink.stream.write(chunk);
    maxPending = Math.max(maxPending, sink.stream.writableLength);
    return ready ? undefined : once(sink.stream, 'drain').then(() => undefined);
  }, { now: Date.now() });
  sink.stream.end();
  await once(sink.stream, 'finish');
  const written = sink.written();
  assert.equal(result.intervals, intervals);
  assert.equal(written.slices, intervals, 'every hold and wait written');
  assert.ok(written.bytes > 40 * 1024 * 1024, `${written.bytes} bytes in all`);
  // One chunk (64 KiB and the event that crossed it) plus what the stream had taken before it said to wait.
  assert.ok(maxPending <= 160 * 1024, `${maxPending} bytes were waiting at most`);
  assert.ok(written.head.startsWith('{"displayTimeUnit":"ms","traceEvents":['), written.head);
  assert.ok(written.tail.endsWith('\n]}\n'), JSON.stringify(written.tail));
});

test('a cancelled trace export stops at its next step', async () => {
  const history = chainHistory({ nodes: 20_000 });
  const abort = new AbortController();
  let chunks = 0;
  await assert.rejects(writeTraceFromHistory(history, () => { if (++chunks === 2) abort.abort(); }, { signal: abort.signal }), CancelledError);
  assert.ok(chunks < 40, `${chunks} chunks before it stopped`);
});
