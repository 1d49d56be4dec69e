// Each participant's figures say exact or bound, by the same rule as a lock's: a time of theirs only bounded, or a
// gap of the monitor on their lock, within the window.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { participantBounds, participantKey } from '../../src/zk/history/figureBounds';
import { lockFigures } from '../../src/zk/history/figures';
import { chainHistory, T0 } from '../support/fixtures/timelineFixtures';

test('a participant found already holding is a bound, one seen throughout is exact; a gap on its lock bounds all in it', () => {
  const history = chainHistory({ nodes: 3, holdMs: 100 });
  const bounds = participantBounds(history, undefined, T0 + 1000);
  assert.deepEqual(bounds, { [participantKey('/locks/l0', '0x1000')]: true, [participantKey('/locks/l0', '0x1001')]: false, [participantKey('/locks/l0', '0x1002')]: false });
  // The keys are the figures' own `who`.
  for (const p of lockFigures(history, undefined, T0 + 1000)[0].participants) assert.ok(participantKey('/locks/l0', p.who) in bounds, p.who);
  // Over a window after the first hold, nobody's time there is bounded.
  assert.equal(Object.values(participantBounds(history, { from: T0 + 150, to: T0 + 300 }, T0 + 1000)).some(Boolean), false);
  history.gaps.push({ from: T0 + 250, to: T0 + 260 });
  assert.deepEqual(participantBounds(history, { from: T0 + 150, to: T0 + 300 }, T0 + 1000), { [participantKey('/locks/l0', '0x1001')]: true, [participantKey('/locks/l0', '0x1002')]: true });
});
