// A panel's whole history written as a recording (the format of `zooscope locks --record`) reads back the same,
// and a cancelled export or open stops with CancelledError.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CancelledError, loadRecordingFile, writeHistoryRecording } from '../../src/zk/history/historyFiles';
import { parseRecording } from '../../src/zk/history/recordingFile';
import { timelineData } from '../../src/zk/history/timeline';
import { chainHistory, T0 } from '../support/fixtures/timelineFixtures';

test('an exported history reads back as the same timeline: closed and open intervals, gaps, queue samples', async () => {
  const history = chainHistory({ nodes: 12_000, locks: 2, sessions: 3, lastOpen: true });
  history.gaps.push({ from: T0 + 50, to: T0 + 80 }, { from: T0 + 90, lock: '/locks/l1', unseen: 3, to: T0 + 95 });
  history.addSample({ lock: '/locks/l0', at: T0, length: 4 });
  // When recording began travels with the file (a replay's first view starts there).
  history.startedAt = T0;
  const chunks: string[] = [];
  const shares: number[] = [];
  const { lines, summarised } = await writeHistoryRecording(history, (c) => chunks.push(c), { root: '/locks', onProgress: (s) => shares.push(s) });
  const text = chunks.join('');
  assert.equal(text.split('\n').length - 1, lines);
  assert.equal(summarised, 0);
  assert.ok(shares.length > 1 && shares[shares.length - 1] === 1, 'progress reported in steps, up to done');
  const loaded = parseRecording(text);
  assert.equal(loaded.root, '/locks');
  assert.equal(loaded.startedAt, T0);
  assert.deepEqual(timelineData(loaded.history), timelineData(history));
});

test('a cancelled export stops; a cancelled open too', async () => {
  const history = chainHistory({ nodes: 20_000 });
  const abort = new AbortController();
  const written: string[] = [];
  await assert.rejects(writeHistoryRecording(history, (c) => { written.push(c); if (written.length === 2) abort.abort(); }, { signal: abort.signal }), CancelledError);
  assert.ok(written.length < 5, 'stopped at the next step');
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-history-')), 'h.jsonl');
  try {
    fs.writeFileSync(file, written.join(''));
    const cancelled = new AbortController();
    cancelled.abort();
    await assert.rejects(loadRecordingFile(file, { signal: cancelled.signal }), CancelledError);
    const loaded = await loadRecordingFile(file);
    assert.ok(loaded.history.closed.length > 0);
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
});
