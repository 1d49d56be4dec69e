// How far the lock recorder's moments trail the clients' own (issue 33): real kazoo contenders (two driver processes)
// take and release mutexes in loops (hold 2–30 ms) on QUEUES queues, 3 contenders each, while a recorder follows them
// as the panel does (monitor, recursive watch, recorder). For every hold the clients logged, the recorded start minus
// the logged acquire moment: median and p95 (and the same for the end against the logged release). A benchmark
// figure, never asserted; the holds recorded must be the holds logged (once each), or the bench fails.
// Then the same figures for the history rebuilt afterwards from the server's own transaction logs (issue 34: what
// `zooscope log --locks` tells), whose moments are the leader's clock at each transaction: the same holds, once each.
// Run alone (a fresh disk-backed server of its own): `npx tsc -p tsconfig.test.json && node out/bench/historyLagBench.js [seconds] [queues]`.
import * as os from 'node:os';
import * as path from 'node:path';
import { LockMonitor } from '../src/zk/analysis';
import { followMonitor, LockRecorder, type HistoryInterval } from '../src/zk/history';
import { lockHistoryFromLogs } from '../src/zk/history/fromServerLogs';
import { logSource, readLogSet } from '../src/zk/serverLogs/logSet';
import { ZkSession } from '../src/zk/session/session';
import type { ThirdPartyClient } from '../test/support/thirdParty/driver';
import type { DriverEvent } from '../test/support/thirdParty/driver';
import { startKazoo } from '../test/support/thirdParty/kazoo';
import { eventually, sleep } from '../test/support/waiting';
import { connectOtherClient } from '../test/support/clients/zkClient';
import { startServer } from './fixtures';

const CONTENDERS = 3;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

/** A history's holds against the clients' logged moments: the lags printed, or a throw when the holds differ. */
function lagFigures(label: string, intervals: readonly HistoryInterval[], events: readonly DriverEvent[]): void {
  const acquired = events.filter((e) => e.event === 'acquired');
  const releasedAt = new Map(events.filter((e) => e.event === 'released').map((e) => [e.id, e.t]));
  const holdList = intervals.filter((i) => i.kind === 'hold');
  const holds = new Map(holdList.map((h) => [`${h.lock}/${h.node}`, h]));
  if (holdList.length !== acquired.length || acquired.some((e) => !holds.has(e.node ?? ''))) {
    throw new Error(`${label}: ${holdList.length} holds, the clients logged ${acquired.length}`);
  }
  const startLag = acquired.map((e) => holds.get(e.node ?? '')!.start - e.t).sort((a, b) => a - b);
  const endLag = acquired.map((e) => (holds.get(e.node ?? '')!.end ?? NaN) - (releasedAt.get(e.id) ?? NaN)).filter(Number.isFinite).sort((a, b) => a - b);
  const exact = holdList.filter((h) => h.startExact && h.endExact).length;
  console.log(`${label}: ${exact} of ${holdList.length} holds exact; hold start − logged acquire median ${percentile(startLag, 0.5).toFixed(1)} ms, p95 ${percentile(startLag, 0.95).toFixed(1)} ms, max ${startLag[startLag.length - 1].toFixed(1)} ms`);
  console.log(`${label}: hold end − logged release median ${percentile(endLag, 0.5).toFixed(1)} ms, p95 ${percentile(endLag, 0.95).toFixed(1)} ms (the release is logged once its delete was answered)`);
}

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 20);
  const queues = Number(process.argv[3] ?? 20);
  const { cluster } = await startServer();
  const drivers: ThirdPartyClient[] = [];
  const session = new ZkSession({ connectString: cluster.connectString, sessionTimeoutMs: 30000, requestTimeoutMs: 20000 });
  try {
    const setup = await connectOtherClient(cluster.connectString);
    for (let q = 0; q < queues; q++) await setup.mkdirp(`/lag/q${q}`);
    setup.close();
    drivers.push(await startKazoo(cluster.connectString), await startKazoo(cluster.connectString));
    await session.open();
    const monitor = new LockMonitor(session, '/lag', { serverWatches: false });
    const recorder = new LockRecorder();
    followMonitor(session, monitor, recorder);
    monitor.start();
    await eventually(() => recorder.followingEvents.synced, 60000, 'the recorder following');

    const deadline = Date.now() + seconds * 1000;
    let ids = 0;
    const loop = async (driver: ThirdPartyClient, lock: string) => {
      while (Date.now() < deadline) {
        const id = `c${ids++}`;
        driver.acquire(id, 'mutex', lock);
        await driver.waitForEvent(id, 'acquired', 120000);
        await sleep(2 + Math.floor(Math.random() * 29)); // the workload's hold
        driver.release(id);
        await driver.waitForEvent(id, 'released', 60000);
      }
    };
    const started = Date.now();
    await Promise.all(Array.from({ length: queues * CONTENDERS }, (_, i) => loop(drivers[i % drivers.length], `/lag/q${i % queues}`)));
    const elapsed = (Date.now() - started) / 1000;

    const events = drivers.flatMap((d) => d.events);
    const acquired = events.filter((e) => e.event === 'acquired');
    const holdOf = () => new Map([...recorder.history.intervals()].filter((i) => i.kind === 'hold').map((h) => [`${h.lock}/${h.node}`, h]));
    await eventually(() => {
      const holds = holdOf();
      return acquired.every((e) => holds.get(e.node ?? '')?.end !== undefined);
    }, 120000, 'every logged hold closed in the history');
    console.log(`history lag: ${acquired.length} holds on ${queues} queues × ${CONTENDERS} kazoo contenders in ${elapsed.toFixed(1)} s (${(acquired.length / elapsed).toFixed(0)} hand-offs/s), load ${os.loadavg()[0].toFixed(1)}`);
    lagFigures('history lag (recorded live)', [...recorder.history.intervals()], events);
    monitor.dispose();
    session.close();
    for (const d of drivers) await d.close().catch(() => undefined);
    drivers.length = 0;
    await cluster.members[0].stop();
    const fromLogs = await lockHistoryFromLogs(readLogSet([logSource(path.join(cluster.members[0].dir, 'data', 'version-2'))]), '/lag');
    lagFigures('history lag (from the server\'s logs)', [...fromLogs.history.intervals()], events);
  } finally {
    session.close();
    for (const d of drivers) await d.close().catch(() => undefined);
    await cluster.stop();
  }
}

main().then(() => process.exit(0), (error: unknown) => {
  console.error('historyLagBench: failed:', error);
  process.exit(1);
});
