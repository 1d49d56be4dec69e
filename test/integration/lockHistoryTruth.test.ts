// The recorder against the clients' own logs: Curator (Java) and kazoo (Python) contenders in loops (acquire, hold a
// random short time, release), one killed while holding, one giving up while waiting, each logging its own acquire
// moments. The history lists every logged hold once, in order, on the right lock and session (or none, when the node
// went before any read told it), invents none, and no two holds of a mutex overlap. Order and identity are
// compared, never durations; the order is the server's (the nodes' sequence numbers), not the clients' log times.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { HistoryInterval } from '../../src/zk/history';
import { RecordedLocks } from '../support/clients/recordedLocks';
import type { DriverEvent, ThirdPartyClient } from '../support/thirdParty/driver';
import { runMutexWorkload } from '../support/thirdParty/mutexWorkload';
import { eventually } from '../support/waiting';
import { connectOtherClient } from '../support/clients/zkClient';
import { startStandalone, ZkCluster } from '../support/servers/zkServer';

const CYCLES = 4;
const WORKERS = 2;

describe('lock history against Curator and kazoo logs', () => {
  let zk: ZkCluster;
  let recording: RecordedLocks;
  const drivers: ThirdPartyClient[] = [];

  before(async () => {
    zk = await startStandalone();
    const setup = await connectOtherClient(zk.connectString);
    await setup.mkdirp('/truth/kazoo');
    await setup.mkdirp('/truth/curator');
    setup.close();
    // With the servers' tables, as the panel reads them: they tell the killed client's session from a release.
    // Through the AdminServer, as the panel reads it: the leader's dump tells each session's expiry time.
    recording = await RecordedLocks.start(zk.connectString, '/truth', { pollIntervalMs: 500, adminPort: zk.members[0].adminPort });
    await eventually(() => recording.looked, 30000, 'the first look');
  });

  after(async () => {
    recording?.close();
    for (const d of drivers) await d.close().catch(() => undefined);
    await zk?.stop();
  });

  test('every logged hold is recorded once, in order, on its lock and session; none invented; none overlapping', async (t) => {
    const { recorder, monitorErrors } = recording;
    // The doomed client's 8 s session timeout leaves the monitor's table polls (every 0.5 s) many chances to find the
    // session connected nowhere while its node is there.
    const { kazoo, doomed, acquired } = await runMutexWorkload(zk.connectString, '/truth/kazoo', '/truth/curator', { cycles: CYCLES, workers: WORKERS, doomedSessionMs: 8000 }, drivers);
    assert.equal(acquired.length, 1 + 2 * WORKERS * CYCLES);
    const recordedHolds = () => [...recorder.history.intervals()].filter((i) => i.kind === 'hold');
    // Wait for the recorder to see the last release of each lock (every hold closed).
    const unclosed = () => acquired.filter((e) => !recordedHolds().some((h) => h.node === path.basename(e.node ?? '') && h.end !== undefined)).map((e) => `${e.id} ${path.basename(e.node ?? '?')}`);
    try {
      await eventually(() => unclosed().length === 0, 60000, 'every hold closed in the history');
    } catch (error) {
      // What the next look needs: which holds, and whether the monitor was away or failing meanwhile.
      throw new Error(`${(error as Error).message}: not closed ${unclosed().join(', ')}; open ${[...recorder.history.open.values()].map(identity).join(', ')}; gaps ${JSON.stringify(recorder.history.gaps)}; monitor errors ${JSON.stringify(monitorErrors)}`);
    }

    for (const lock of ['/truth/kazoo', '/truth/curator']) {
      const sequenceOf = (e: DriverEvent) => Number((e.node ?? '').slice(-10));
      const logged = acquired.filter((e) => path.dirname(e.node ?? '') === lock).sort((a, b) => sequenceOf(a) - sequenceOf(b));
      const recorded = recordedHolds().filter((h) => h.lock === lock).sort((a, b) => a.start - b.start);
      assert.deepEqual(recorded.map((h) => h.node), logged.map((e) => path.basename(e.node ?? '')), `${lock}: the same holds, in the same order (gaps: ${JSON.stringify(recorder.history.gaps)})`);
      // A node gone before any read has no session told: unknown, never another's.
      recorded.forEach((h, k) => assert.ok(h.session === undefined || h.session === logged[k].session, `${lock}: ${identity(h)} is not ${loggedIdentity(logged[k])}`));
      t.diagnostic(`${lock}: ${recorded.filter((h) => h.session === undefined).length} of ${recorded.length} holds with no session told (gone before any read)`);
      // How far the recorded start is from the client's own log: a benchmark figure, never asserted.
      const lags = recorded.map((h, k) => h.start - logged[k].t).sort((x, y) => x - y);
      t.diagnostic(`${lock}: recorded hold start − logged acquire, median ${lags[lags.length >> 1].toFixed(1)} ms, max ${lags[lags.length - 1].toFixed(1)} ms`);
      for (let k = 1; k < recorded.length; k++) {
        assert.ok((recorded[k - 1].end ?? Infinity) <= recorded[k].start, `${lock}: ${recorded[k - 1].node} and ${recorded[k].node} overlap`);
      }
    }
    const doomedNode = path.basename(doomed.events.find((e) => e.event === 'acquired')?.node ?? '?');
    const endings = recordedHolds().filter((h) => h.lock === '/truth/kazoo').map((h) => `${h.node === doomedNode ? 'doomed' : 'worker'} ${h.ended}`);
    // The killed client's end is a session loss where the leader's tracker proved it (else unknown), never a release;
    // no live worker is ever called lost (lockHistorySessionEnds proves the loss is told).
    assert.ok(endings.includes('doomed sessionEnded') || endings.includes('doomed unknown'), endings.join());
    t.diagnostic(`the killed client's hold ended: ${endings.find((e) => e.startsWith('doomed')) ?? 'not recorded'}`);
    assert.ok(!endings.some((e) => e.startsWith('worker') && e.endsWith('sessionEnded')), endings.join());
    // The quitter's node as its client logged it (its label comes only with a read, which a busy machine may not
    // make before the node goes).
    const quitterNode = path.basename(kazoo.events.find((e) => e.id === 'quitter' && e.event === 'waiting')?.node ?? '?');
    const quitterIntervals = [...recorder.history.intervals()].filter((i) => i.node === quitterNode);
    assert.deepEqual(quitterIntervals.map((i) => i.kind), ['wait'], `the quitter waited and never held: ${JSON.stringify(kazoo.events.filter((e) => e.id === 'quitter'))}; recorded ${JSON.stringify(quitterIntervals)}; gaps ${JSON.stringify(recorder.history.gaps)}; monitor errors ${JSON.stringify(monitorErrors)}`);
    t.diagnostic(`the quitter's wait has ${quitterIntervals[0].label === undefined ? 'no label (no read saw its node)' : `label ${quitterIntervals[0].label}`}`);
    assert.notEqual(quitterIntervals[0].ended, 'acquired');
    assert.equal(recorder.history.gaps.length, 0);
  });
});

const identity = (h: HistoryInterval) => `${h.node} ${h.session}`;
const loggedIdentity = (e: DriverEvent) => `${path.basename(e.node ?? '')} ${e.session}`;
