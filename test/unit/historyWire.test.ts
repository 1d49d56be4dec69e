// What the lock history sends to the webview is typed end to end: the JSON text in a message says what it holds, so
// neither side casts. The type checks below are part of the test: `tsc -p tsconfig.test.json` fails if a plain
// string, or the wrong model's text, would still pass as a timeline or figures.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LockAnalysis } from '../../src/shared/lockAnalysis';
import { END_CODES, type LockFigures, type TimelineData } from '../../src/shared/lockHistory';
import { parseJsonText, toJsonText, type HostMessage, type JsonText } from '../../src/shared/lockQueueMessages';
import { lockFigures } from '../../src/zk/history/figures';
import { timelineData } from '../../src/zk/history/timeline';
import { chainHistory, T0 } from '../support/fixtures/timelineFixtures';

test('the timeline and figures cross as typed JSON text and come back equal', () => {
  const history = chainHistory({ nodes: 3, holdMs: 1000 });
  const timeline = timelineData(history);
  const figures = lockFigures(history, undefined, T0 + 3000);
  const messages: HostMessage[] = [
    { type: 'timeline', seq: 1, timelineJson: toJsonText(timeline), live: false, now: T0 + 3000 },
    { type: 'figures', figuresJson: toJsonText(figures) },
  ];
  for (const message of messages) {
    if (message.type === 'timeline') {
      const back: TimelineData = parseJsonText(message.timelineJson);
      assert.deepEqual(back, timeline);
      assert.ok(back.ended.every((code) => END_CODES[code] !== undefined));
    } else if (message.type === 'figures') {
      const back: LockFigures[] = parseJsonText(message.figuresJson);
      assert.deepEqual(back, figures);
    }
  }
});

test('a plain string or another model\'s text is not accepted as a timeline or figures (checked by tsc)', () => {
  const analysisText = '{}' as JsonText<LockAnalysis>;
  // @ts-expect-error a string is not JSON text of a timeline
  const plain: HostMessage = { type: 'timeline', seq: 1, timelineJson: '{}', live: false, now: 0 };
  // @ts-expect-error the analysis's text is not the figures'
  const wrong: HostMessage = { type: 'figures', figuresJson: analysisText };
  // At run time both are strings: the guard is the type.
  assert.equal(typeof plain.type, 'string');
  assert.equal(typeof wrong.type, 'string');
});
