// `zooscope locks --watch --metrics` scraped by a real Prometheus (Debian's, started here on loopback with a short
// scrape interval) while real clients (kazoo, Curator, node-zookeeper-client) take locks on a real server: the
// counters and the histograms' counts Prometheus stored match the clients' logs, a hostile lock name stays a valid
// exposition (promtool, and Prometheus ingests it with the path intact), the shipped alert rules load and one fires
// on a lock held too long, and the series stay bounded with many locks (--max-locks). Every wait is for a
// condition; the bounds are failure guards only.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as readline from 'node:readline';
import * as zookeeper from 'node-zookeeper-client';
import { sharedCliBundle } from '../support/clients/cliBundle';
import { HOSTILE_NAMES } from '../support/fixtures/hostileFixture';
import { freePort } from '../support/ports';
import { httpGet, TestPrometheus } from '../support/servers/prometheus';
import { endsWithTestProcess, exitOf } from '../support/processes';
import { repoRoot, type ThirdPartyClient } from '../support/thirdParty/driver';
import { startKazoo } from '../support/thirdParty/kazoo';
import { runMutexWorkload } from '../support/thirdParty/mutexWorkload';
import { eventually, waitFor } from '../support/waiting';
import { connectOtherClient, OtherClient } from '../support/clients/zkClient';
import { startStandalone, ZkCluster } from '../support/servers/zkServer';

const MAX_LOCKS = 6;
const SHIPPED_RULES = path.join(repoRoot(), 'docs', 'prometheus', 'zooscope-alerts.yml');
/** No newline: ZooKeeper refuses control characters in names (the unit tests escape one). */
const HOSTILE_LOCK = `/prom/q"uo\\te\\"} ${HOSTILE_NAMES.rtlOverride}${HOSTILE_NAMES.isolates}`;

/** Lines of a child's stdout, as they come. */
function linesOf(proc: ChildProcess): string[] {
  const lines: string[] = [];
  readline.createInterface({ input: proc.stdout! }).on('line', (line) => lines.push(line));
  return lines;
}

describe('lock metrics scraped by a real Prometheus', () => {
  let zk: ZkCluster;
  let recorder: ChildProcess;
  let recorderOut: string[];
  let recorderErr = '';
  let prometheus: TestPrometheus;
  let metricsUrl: string;
  let dir: string;
  let other: OtherClient;
  let cli: string;
  /** The recorder's --record file: its figures (--replay) are what the metrics must count. */
  let recording: string;
  const drivers: ThirdPartyClient[] = [];

  const query = (expr: string) => prometheus.query(expr);
  const valueOf = (expr: string) => prometheus.valueOf(expr);
  /** Until Prometheus holds a scrape taken after `since` (s) in which the locks' queues are empty: the recorder saw every release. */
  const settled = async (locks: string[], since: number) => {
    for (const lock of locks) {
      const matcher = `{lock=${JSON.stringify(lock)}}`;
      await eventually(async () => (await valueOf(`timestamp(zookeeper_lock_queue_length${matcher})`) ?? 0) > since
        && (await valueOf(`zookeeper_lock_queue_length${matcher}`)) === 0, 90000, `a scrape after the clients' end with ${lock}'s queue empty`);
    }
  };

  before(async () => {
    [cli, zk] = await Promise.all([sharedCliBundle(), startStandalone({ adminServer: true })]);
    other = await connectOtherClient(zk.connectString);
    await other.mkdirp('/prom');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-prom-'));
    const metricsPort = await freePort();
    metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    recording = path.join(dir, 'night.jsonl');
    recorder = spawn(process.execPath, [cli, 'locks', zk.connectString, '/prom', '--watch', '--record', recording, '--metrics', `:${metricsPort}`,
      '--max-locks', String(MAX_LOCKS), '--admin-port', String(zk.members[0].adminPort)], { stdio: ['ignore', 'pipe', 'pipe'] });
    endsWithTestProcess(recorder);
    recorderOut = linesOf(recorder);
    recorder.stderr!.on('data', (chunk: Buffer) => { recorderErr += chunk.toString(); });
    await eventually(() => recorderOut.some((line) => line.startsWith('watching /prom')), 60000, `the recorder watching (stderr: ${recorderErr})`);
    assert.match(recorderErr, new RegExp(`metrics on http://127\\.0\\.0\\.1:${metricsPort}/metrics; at most ${MAX_LOCKS} locks get their own series`));

    // The shipped rules, with the held-too-long threshold and its `for` made short for the test.
    const shipped = fs.readFileSync(SHIPPED_RULES, 'utf8');
    const rules = shipped.replace('expr: zookeeper_lock_held_seconds > 300\n        for: 1m', 'expr: zookeeper_lock_held_seconds > 3\n        for: 0s');
    assert.notEqual(rules, shipped, 'the test copy changes the held-too-long rule');
    fs.writeFileSync(path.join(dir, 'rules.yml'), rules);
    prometheus = await TestPrometheus.start('zooscope', [`127.0.0.1:${metricsPort}`], rules);
  });

  after(async () => {
    for (const d of drivers) await d.close().catch(() => undefined);
    other?.close();
    await prometheus?.stop();
    for (const proc of [recorder]) {
      if (!proc) continue;
      const exited = exitOf(proc);
      proc.kill('SIGTERM');
      await exited;
    }
    await zk?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  test('the stored counters and histogram counts match the acquisitions Curator and kazoo logged', async (t) => {
    const { acquired } = await runMutexWorkload(zk.connectString, '/prom/kazoo', '/prom/curator', { cycles: 4, workers: 2, doomedSessionMs: 8000 }, drivers);
    const end = Date.now() / 1000;
    await settled(['/prom/kazoo', '/prom/curator'], end);
    assert.equal(await valueOf('zookeeper_lock_monitor_gaps_total'), 0, 'no gap: every hold is exact');
    for (const [lock, recipe] of [['/prom/kazoo', 'kazoo-lock'], ['/prom/curator', 'curator-mutex']]) {
      const logged = acquired.filter((e) => path.dirname(e.node ?? '') === lock).length;
      const labels = `{lock="${lock}",recipe="${recipe}"}`;
      assert.equal(await valueOf(`zookeeper_lock_acquisitions_total${labels}`), logged, `${lock}: acquisitions`);
      assert.equal(await valueOf(`zookeeper_lock_hold_seconds_count${labels}`), logged, `${lock}: holds in the histogram`);
      assert.equal(await valueOf(`zookeeper_lock_hold_seconds_bucket{lock="${lock}",recipe="${recipe}",le="+Inf"}`), logged);
      assert.equal(await valueOf(`zookeeper_lock_bounded_intervals_total{lock="${lock}",recipe="${recipe}",role="hold"}`), 0);
    }
    // What the figures of the same history count (the recording, replayed): the same acquisitions, all exact.
    const replayed = spawnSync(process.execPath, [cli, 'locks', '--replay', recording, '--json'], { encoding: 'utf8', timeout: 60000 });
    assert.equal(replayed.status, 0, replayed.stderr);
    const { figures } = JSON.parse(replayed.stdout) as { figures: { lock: string; acquisitions: number; bounds: boolean; holdMs: { count: number } }[] };
    for (const lock of ['/prom/kazoo', '/prom/curator']) {
      const figure = figures.find((f) => f.lock === lock);
      assert.equal(figure?.acquisitions, await valueOf(`sum(zookeeper_lock_acquisitions_total{lock="${lock}"})`), `${lock}: figures and metrics`);
      assert.equal(figure?.bounds, false, `${lock}: exact in the figures as in the metrics`);
    }
    // The killed client's hold: a session loss where the leader's tracker proved it, never more than that one.
    const lost = await valueOf('sum(zookeeper_lock_session_losses_total{role="hold"})');
    assert.ok(lost === 0 || lost === 1, String(lost));
    t.diagnostic(`session losses while holding told: ${lost}`);
  });

  test('waits: two contenders queued behind a holder are two waits in the histogram', async () => {
    const kazoo = await startKazoo(zk.connectString);
    drivers.push(kazoo);
    kazoo.acquire('w-a', 'mutex', '/prom/waits');
    await kazoo.waitForEvent('w-a', 'acquired', 60000);
    kazoo.acquire('w-b', 'mutex', '/prom/waits');
    kazoo.acquire('w-c', 'mutex', '/prom/waits');
    // Both queued (the server lists their nodes) before the holder lets go.
    await eventually(async () => (await other.children('/prom/waits')).length === 3, 60000, 'three nodes in /prom/waits');
    // Each holder lets go once the next (whichever the server queued first) holds.
    let holder = 'w-a';
    for (const waiting of [['w-b', 'w-c'], ['w-b', 'w-c'], []]) {
      kazoo.release(holder);
      await kazoo.waitForEvent(holder, 'released', 60000);
      if (waiting.length === 0) break;
      const next = await kazoo.waitFor((e) => e.event === 'acquired' && waiting.includes(e.id ?? '') && e.id !== holder && !kazoo.events.some((r) => r.event === 'released' && r.id === e.id), 60000, 'the next holder');
      holder = next.id!;
    }
    await settled(['/prom/waits'], Date.now() / 1000);
    const labels = '{lock="/prom/waits",recipe="kazoo-lock"}';
    assert.equal(await valueOf(`zookeeper_lock_acquisitions_total${labels}`), 3);
    assert.equal(await valueOf(`zookeeper_lock_hold_seconds_count${labels}`), 3);
    assert.equal(await valueOf(`zookeeper_lock_wait_seconds_count${labels}`), 2);
  });

  test('a hostile lock name stays a valid exposition: promtool accepts it, Prometheus stores the path as it is', async () => {
    await other.mkdirp(HOSTILE_LOCK);
    const holder = await other.create(`${HOSTILE_LOCK}/lock-`, 'a', zookeeper.CreateMode.EPHEMERAL_SEQUENTIAL);
    await other.create(`${HOSTILE_LOCK}/lock-`, 'b', zookeeper.CreateMode.EPHEMERAL_SEQUENTIAL);
    const stored = await waitFor('the hostile lock stored by Prometheus', async () => {
      const found = (await query('zookeeper_lock_queue_length')).find((s) => s.metric.lock === HOSTILE_LOCK);
      return found && Number(found.value[1]) === 2 ? found : undefined;
    }, 60000, 200);
    assert.equal(stored.metric.lock, HOSTILE_LOCK);
    await other.remove(holder);
    await eventually(async () => (await query('zookeeper_lock_acquisitions_total')).some((s) => s.metric.lock === HOSTILE_LOCK && Number(s.value[1]) === 2), 60000, 'the second hold stored');
    for (const [accept, type] of [[undefined, 'text/plain; version=0.0.4'], ['application/openmetrics-text; version=1.0.0', 'application/openmetrics-text; version=1.0.0']] as const) {
      const scraped = await httpGet(metricsUrl, accept ? { accept } : {});
      assert.equal(scraped.status, 200);
      assert.ok(scraped.type.startsWith(type), scraped.type);
      assert.ok(scraped.body.includes('lock="/prom/q\\"uo\\\\te\\\\\\"} '), 'the label value escaped');
      if (!accept) {
        const check = spawnSync('promtool', ['check', 'metrics'], { input: scraped.body, encoding: 'utf8' });
        assert.equal(check.status, 0, `promtool check metrics: ${check.stdout}${check.stderr}`);
      } else {
        assert.ok(scraped.body.endsWith('# EOF\n'));
      }
    }
    const [target] = (JSON.parse((await httpGet(`${prometheus.url}/api/v1/targets`)).body) as { data: { activeTargets: { health: string; lastError: string }[] } }).data.activeTargets;
    assert.deepEqual({ health: target.health, lastError: target.lastError }, { health: 'up', lastError: '' });
  });

  test('the shipped alert rules load (promtool), and the held-too-long one fires in Prometheus on a lock held long', async () => {
    for (const file of [SHIPPED_RULES, path.join(dir, 'rules.yml')]) {
      const check = spawnSync('promtool', ['check', 'rules', file], { encoding: 'utf8' });
      assert.equal(check.status, 0, `${file}: ${check.stdout}${check.stderr}`);
    }
    const kazoo = drivers.find((d) => d.library === 'kazoo')!;
    kazoo.acquire('long', 'mutex', '/prom/held');
    await kazoo.waitForEvent('long', 'acquired', 60000);
    const firing = await waitFor('ZooKeeperLockHeldTooLong firing for /prom/held', async () => {
      const alerts = (JSON.parse((await httpGet(`${prometheus.url}/api/v1/alerts`)).body) as { data: { alerts: { labels: Record<string, string>; state: string }[] } }).data.alerts;
      return alerts.find((a) => a.labels.alertname === 'ZooKeeperLockHeldTooLong' && a.labels.lock === '/prom/held' && a.state === 'firing');
    }, 90000, 250);
    assert.equal(firing.labels.severity, 'warning');
    kazoo.release('long');
    await kazoo.waitForEvent('long', 'released', 60000);
    // Released: the holder's time is back to 0 in the next scrapes.
    await eventually(async () => (await valueOf('zookeeper_lock_held_seconds{lock="/prom/held"}')) === 0, 60000, 'held time back to 0');
  });

  test('many locks: the series stay bounded (--max-locks), the rest summed under one label with nothing lost', async () => {
    const MANY = 20;
    const kazoo = drivers.find((d) => d.library === 'kazoo')!;
    for (let i = 0; i < MANY; i++) {
      kazoo.acquire(`many-${i}`, 'mutex', `/prom/many/lock-${i}`);
      await kazoo.waitForEvent(`many-${i}`, 'acquired', 60000);
      kazoo.release(`many-${i}`);
      await kazoo.waitForEvent(`many-${i}`, 'released', 60000);
    }
    const manyOrOther = '{lock=~"/prom/many/.*|\\\\(other\\\\)"}';
    await eventually(async () => (await valueOf(`sum(zookeeper_lock_acquisitions_total${manyOrOther})`)) === MANY, 90000, `${MANY} acquisitions stored`);
    const lockLabels = new Set((await query('zookeeper_lock_queue_length')).map((s) => s.metric.lock));
    assert.equal(lockLabels.size, MAX_LOCKS + 1, [...lockLabels].join(', '));
    assert.ok(lockLabels.has('(other)'));
    // Five locks came before these (kazoo, curator, waits, the hostile one, held): one of these has its own series.
    assert.equal(await valueOf('zookeeper_lock_folded_locks'), MANY - (MAX_LOCKS - 5));
    // Per lock label and recipe: 1 counter + 2 histograms of 24 + 4 role counters; per lock label 3 more; 3 alone.
    const recipes = (await query('zookeeper_lock_acquisitions_total')).length;
    assert.ok((await valueOf('scrape_samples_scraped{job="zooscope"}'))! <= recipes * 53 + lockLabels.size * 3 + 3);
  });
});
