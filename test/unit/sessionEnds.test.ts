// The rules that tell a node's end from the leader's session tracker (sessionEnds.ts), on readings written by hand:
// what proves a release, what proves an expiry, and every near miss that must stay undecided or unknown.
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { AwaitedEnd, judgeEnd, TrackerReading, TrackerSightings } from '../../src/zk/history/sessionEnds';

const S = '0x1';
const NODE = '/lock/n-0000000001';
const TICK = 2000;

/** A reading at wall time `at` (asked then, answered 10 ms later); `expiry` undefined leaves the session out. */
function reading(at: number, expiry: number | undefined, options: { node?: boolean; clock?: number; connected?: boolean } = {}): TrackerReading {
  const sessions = new Map<string, number | undefined>(expiry === undefined ? [] : [[S, expiry]]);
  const ephemerals = new Map<string, string[]>(expiry !== undefined && options.node !== false ? [[S, [NODE]]] : []);
  return {
    askedAt: at, answeredAt: at + 10, sessions, ephemerals, tickMs: TICK,
    clockAtLeast: options.clock ?? at, connected: new Set(options.connected ? [S] : []),
  };
}

/** Feeds the readings before the delete (learnt at `learntAt`), then those after; returns the first verdict. */
function judge(before: TrackerReading[], learntAt: number, after: TrackerReading[]): string | undefined {
  const sightings = new TrackerSightings();
  const interested = new Set([S]);
  for (const r of before) sightings.note(r, interested);
  const end: AwaitedEnd = { session: S, path: NODE, learntAt };
  const last = sightings.get(S);
  if (last?.paths.has(NODE)) end.sighting = last;
  for (const r of after) {
    sightings.note(r, interested);
    const verdict = judgeEnd(end, r, sightings);
    if (verdict) return verdict;
  }
  return undefined;
}

// A killed client's session: its expiry time (on the tracker's clock, here equal to the wall clock) stops at 12 000.
const silentUntilExpiry = [0, 2000, 4000, 6000, 8000, 10_000].map((at) => reading(at, 12_000));

describe('telling a node\'s end from the leader\'s session tracker', () => {
  test('gone after the delete, last seen disconnected, silent for long and due within two ticks: expired', () => {
    assert.equal(judge(silentUntilExpiry, 12_050, [reading(12_100, undefined)]), 'expired');
  });

  test('still connected somewhere (a frozen client keeps its connection): unknown', () => {
    const frozen = [0, 2000, 4000, 6000, 8000, 10_000].map((at) => reading(at, 12_000, { connected: true }));
    assert.equal(judge(frozen, 12_050, [reading(12_100, undefined)]), 'unknown');
  });

  test('due later than two ticks at its last sighting (a release, then a close): unknown', () => {
    assert.equal(judge(silentUntilExpiry.slice(0, 3), 5000, [reading(5100, undefined)]), 'unknown');
  });

  test('its expiry time moved lately (the client pings): unknown, however close the expiry', () => {
    const pinging = [reading(0, 4000), reading(1300, 6000), reading(2600, 6000), reading(3900, 8000), reading(5200, 8000), reading(6500, 8000)];
    assert.equal(judge(pinging, 6600, [reading(6700, undefined)]), 'unknown');
  });

  test('without a lower bound of the tracker\'s clock: unknown', () => {
    const unanchored = silentUntilExpiry.map((r) => ({ ...r, clockAtLeast: undefined }));
    assert.equal(judge(unanchored, 12_050, [reading(12_100, undefined)]), 'unknown');
  });

  test('the last sighting without its node (deleted before): unknown', () => {
    const released = [...silentUntilExpiry, reading(11_000, 12_000, { node: false })];
    assert.equal(judge(released, 11_500, [reading(12_100, undefined)]), 'unknown');
  });

  test('still tracked in a reading begun after one showed the node gone on the leader: released', () => {
    const after = [reading(3000, 20_000, { node: false }), reading(3500, 20_000, { node: false })];
    assert.equal(judge([reading(0, 20_000)], 2900, after), 'released');
  });

  test('still tracked, but the leader still lists the node (it applies the delete later): undecided', () => {
    assert.equal(judge([reading(0, 20_000)], 2900, [reading(3000, 20_000), reading(3500, 20_000)]), undefined);
  });

  test('one reading without the node is not enough: the session list was read before the node list', () => {
    assert.equal(judge([reading(0, 20_000)], 2900, [reading(3000, 20_000, { node: false })]), undefined);
  });

  test('a reading begun before the delete was learnt tells nothing', () => {
    assert.equal(judge(silentUntilExpiry, 12_050, [reading(12_000, undefined)]), undefined);
  });
});

describe('asking for the reading that can prove an expiry', () => {
  const wanted = (...readings: TrackerReading[]) => {
    const sightings = new TrackerSightings();
    for (const r of readings) sightings.note(r, new Set([S]));
    return sightings.readingWantedAt();
  };

  test('a session connected nowhere, with its node, due later than two ticks: a reading 1.5 ticks before it is due', () => {
    // Seen at 1000, due at 12 000 at the latest (its clock at least 1000): read at 12 000 − 3000.
    assert.equal(wanted(reading(1000, 12_000)), 9000);
    // The clock ahead of the wall: due sooner, asked sooner, but only once the expiry time has stood still long enough.
    assert.equal(wanted(reading(1000, 12_000, { clock: 2000 })), 8005);
  });

  test('first seen late: asked once its expiry time has stood still longer than it has left plus two ticks', () => {
    // (12 000 + 7010 + 4000) / 2: silent 4495 ms then, with 495 ms left.
    assert.equal(wanted(reading(7000, 12_000)), 11_505);
  });

  test('the reading it asked for, and every near miss, ask for nothing more', () => {
    // Seen within its last two ticks already: that sighting is the one the proof needs.
    assert.equal(wanted(reading(1000, 12_000), reading(9000, 12_000)), undefined);
    assert.equal(wanted(reading(1000, 12_000, { connected: true })), undefined, 'connected: its client may come back');
    assert.equal(wanted(reading(1000, 12_000, { node: false })), undefined, 'no node of ours left');
    assert.equal(wanted({ ...reading(1000, 12_000), clockAtLeast: undefined }), undefined, 'the tracker\'s clock unknown');
    assert.equal(wanted(reading(1000, undefined)), undefined, 'not tracked');
    assert.equal(wanted(reading(9500, 12_000)), undefined, 'first seen too late to prove anything');
  });

  test('the soonest of several sessions', () => {
    const sightings = new TrackerSightings();
    const two = reading(1000, 12_000);
    (two.sessions as Map<string, number>).set('0x2', 8000);
    (two.ephemerals as Map<string, string[]>).set('0x2', ['/lock/n-0000000002']);
    sightings.note(two, new Set([S, '0x2']));
    assert.equal(sightings.readingWantedAt(), 6505);
  });
});
