// Lock contention as Prometheus metrics (src/zk/metrics): label values escaped whatever a path holds, bucket
// bounds and cumulative counts, --max-locks folding, the format an Accept header asks for, and counts that equal
// what the figures count (exact holds in the histograms, bounds apart), from a real recorder fed hand-made reads.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import * as net from 'node:net';
import { isExact, lockFigures, LockRecorder, type HistoryInterval } from '../../src/zk/history';
import { escapeLabelValue, formatFor, LockMetrics, OTHER_LOCKS, DURATION_BUCKETS } from '../../src/zk/metrics';
import { listenAddressOf, MetricsServer } from '../../src/cli/metricsServer';
import { UsageError } from '../../src/cli/args';
import { snapshot, T0 } from '../support/fixtures/lockHistoryFixtures';

const PROMETHEUS_ACCEPT = 'application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1';

/** The samples of an exposition: `name{labels}` → value (labels as written, escaped). */
function samples(text: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    found.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return found;
}

function interval(id: number, lock: string, kind: 'hold' | 'wait', start: number, end?: number, exact = true): HistoryInterval {
  return { id, kind, lock, node: `n${id}`, participant: 'exclusive', start, startExact: exact, ...(end === undefined ? {} : { end, endExact: true, ended: 'released' as const }) };
}

test('label values: backslash, double quote and newline escaped; everything else (bidi, quotes of other kinds) as it is', () => {
  assert.equal(escapeLabelValue('/a\\b"c\nd'), '/a\\\\b\\"c\\nd');
  const bidi = '/locks/invoice-\u202Egnp.exe\u2066\'`';
  assert.equal(escapeLabelValue(bidi), bidi);
  const metrics = new LockMetrics({ now: () => T0 + 5000 });
  const hostile = '/locks/"}\nzookeeper_lock_acquisitions_total{lock="forged"} 99\n\\';
  metrics.note({ type: 'open', interval: interval(1, hostile, 'hold', T0) });
  const text = metrics.render('text');
  // One line per sample: the forged line stays inside the label value.
  assert.ok(!text.split('\n').some((line) => line.startsWith('zookeeper_lock_acquisitions_total{lock="forged"}')), text);
  assert.equal(samples(text).get('zookeeper_lock_acquisitions_total{lock="/locks/\\"}\\nzookeeper_lock_acquisitions_total{lock=\\"forged\\"} 99\\n\\\\",recipe="unknown"}'), 1);
});

test('histogram buckets: a millisecond to hours, bounds inclusive, cumulative, +Inf equal to the count', () => {
  assert.equal(DURATION_BUCKETS[0], 0.001);
  assert.ok(DURATION_BUCKETS.includes(3600) && DURATION_BUCKETS.at(-1) === Infinity);
  const metrics = new LockMetrics();
  const durations = [0, 1, 1.5, 2, 40, 1000, 7_200_000, 30_000_000];
  durations.forEach((ms, i) => {
    const hold = interval(i + 1, '/L', 'hold', T0, T0 + ms);
    metrics.note({ type: 'open', interval: { ...hold, end: undefined } });
    metrics.note({ type: 'close', interval: hold });
  });
  const got = samples(metrics.render('text'));
  const bucket = (le: string) => got.get(`zookeeper_lock_hold_seconds_bucket{lock="/L",recipe="unknown",le="${le}"}`);
  assert.equal(bucket('0.001'), 2); // 0 and exactly 1 ms
  assert.equal(bucket('0.0025'), 4);
  assert.equal(bucket('0.05'), 5);
  assert.equal(bucket('1'), 6);
  assert.equal(bucket('7200'), 7);
  assert.equal(bucket('14400'), 7);
  assert.equal(bucket('+Inf'), durations.length);
  assert.equal(got.get('zookeeper_lock_hold_seconds_count{lock="/L",recipe="unknown"}'), durations.length);
  assert.equal(got.get('zookeeper_lock_hold_seconds_sum{lock="/L",recipe="unknown"}'), durations.reduce((a, b) => a + b, 0) / 1000);
  let last = 0;
  for (const le of DURATION_BUCKETS) {
    const n = bucket(le === Infinity ? '+Inf' : String(le))!;
    assert.ok(n >= last, `le=${le}`);
    last = n;
  }
});

test('--max-locks: the first locks get their own series, the rest are summed under one label', () => {
  const metrics = new LockMetrics({ maxLocks: 2, now: () => T0 + 10_000 });
  const locks = ['/a', '/b', '/c', '/d', '/e'];
  locks.forEach((lock, i) => {
    metrics.note({ type: 'open', interval: interval(i + 1, lock, 'hold', T0 + i * 1000) });
    metrics.note({ type: 'queue', sample: { lock, at: T0, length: 2 } });
  });
  const text = metrics.render('text');
  const got = samples(text);
  const lockLabels = new Set([...got.keys()].map((key) => /lock="([^"]*)"/.exec(key)?.[1]).filter((l) => l !== undefined));
  assert.deepEqual([...lockLabels].sort(), [OTHER_LOCKS, '/a', '/b'].sort());
  assert.equal(got.get(`zookeeper_lock_acquisitions_total{lock="${OTHER_LOCKS}",recipe="unknown"}`), 3);
  assert.equal(got.get(`zookeeper_lock_queue_length{lock="${OTHER_LOCKS}"}`), 6);
  assert.equal(got.get('zookeeper_lock_queue_length{lock="/a"}'), 2);
  // Held so far: the longest current hold of the folded locks (/c, since 2 s), not a sum.
  assert.equal(got.get(`zookeeper_lock_held_seconds{lock="${OTHER_LOCKS}"}`), 8);
  assert.equal(got.get('zookeeper_lock_folded_locks'), 3);
  assert.deepEqual(metrics.lockCounts, { own: 2, folded: 3 });
  // A queue that shrinks changes the sum by its own change only.
  metrics.note({ type: 'queue', sample: { lock: '/d', at: T0 + 1, length: 0 } });
  assert.equal(samples(metrics.render('text')).get(`zookeeper_lock_queue_length{lock="${OTHER_LOCKS}"}`), 4);
});

test('OpenMetrics when the Accept header asks for it (as Prometheus does), the text format 0.0.4 otherwise', () => {
  assert.equal(formatFor(PROMETHEUS_ACCEPT), 'openmetrics');
  assert.equal(formatFor('application/openmetrics-text'), 'openmetrics');
  assert.equal(formatFor('text/plain;version=0.0.4;q=0.9,application/openmetrics-text;version=1.0.0;q=0.5'), 'text');
  assert.equal(formatFor('application/openmetrics-text;version=0.0.1'), 'text');
  assert.equal(formatFor(undefined), 'text');
  assert.equal(formatFor('*/*'), 'text');
  assert.equal(formatFor('application/openmetrics-text;version=1.0.0;q=0'), 'text');
  const metrics = new LockMetrics();
  metrics.note({ type: 'open', interval: interval(1, '/L', 'hold', T0) });
  const om = metrics.render('openmetrics');
  const lines = om.trimEnd().split('\n');
  assert.equal(lines.at(-1), '# EOF');
  assert.ok(om.endsWith('# EOF\n'));
  assert.ok(lines.includes('# TYPE zookeeper_lock_acquisitions counter'), om);
  assert.ok(lines.includes('zookeeper_lock_acquisitions_total{lock="/L",recipe="unknown"} 1'), om);
  assert.ok(lines.includes('# UNIT zookeeper_lock_hold_seconds seconds'), om);
  assert.ok(lines.includes('zookeeper_lock_hold_seconds_bucket{lock="/L",recipe="unknown",le="1.0"} 0'), om);
  const text = metrics.render('text');
  assert.ok(text.includes('# TYPE zookeeper_lock_acquisitions_total counter\n'), text);
  assert.ok(text.includes('zookeeper_lock_hold_seconds_bucket{lock="/L",recipe="unknown",le="1"} 0\n'), text);
  assert.ok(!text.includes('# EOF') && !text.includes('# UNIT'), text);
  // Every family has its HELP and TYPE, in both formats.
  for (const body of [om, text]) {
    const types = body.split('\n').filter((l) => l.startsWith('# TYPE ')).map((l) => l.split(' ')[2]);
    const helps = body.split('\n').filter((l) => l.startsWith('# HELP ')).map((l) => l.split(' ')[2]);
    assert.deepEqual(helps, types);
    assert.ok(types.length >= 10);
  }
});

test('exact against bound: the histograms count what the figures count as exact; acquisitions equal the figures\'', () => {
  const recorder = new LockRecorder();
  const metrics = new LockMetrics({ now: () => T0 + 1000 });
  metrics.attach(recorder);
  // a: found already holding (a bound); b waits, then holds exactly; c waits; a gap while b holds; b seen gone after it.
  recorder.observe(snapshot(100, { '/L': [{ name: 'a', session: '0xa', since: 0, holding: true, held: [0, false] }, { name: 'b', session: '0xb', since: 50 }] }));
  recorder.observe(snapshot(200, { '/L': [{ name: 'b', session: '0xb', since: 50, holding: true, held: [200, true] }, { name: 'c', session: '0xc', since: 150 }] }));
  recorder.observe(snapshot(300, { '/L': [{ name: 'c', session: '0xc', since: 150, holding: true, held: [300, true] }, { name: 'd', session: '0xd', since: 250 }] }));
  recorder.gapStarted(T0 + 350);
  assert.match(metrics.render('text'), /^zookeeper_lock_recorder_connected 0$/m);
  recorder.gapEnded(T0 + 450);
  recorder.observe(snapshot(460, { '/L': [{ name: 'd', session: '0xd', since: 250, holding: true, held: [460, false] }] }));
  recorder.observe(snapshot(500, { '/L': [] }));
  const got = samples(metrics.render('text'));
  const holds = [...recorder.history.intervals()].filter((i) => i.kind === 'hold');
  const waits = [...recorder.history.intervals()].filter((i) => i.kind === 'wait');
  const closedExact = (list: HistoryInterval[]) => list.filter((i) => i.end !== undefined && isExact(i)).length;
  const closedBound = (list: HistoryInterval[]) => list.filter((i) => i.end !== undefined && !isExact(i)).length;
  // The scenario has both kinds, or it proves nothing.
  assert.ok(closedExact(holds) >= 1 && closedBound(holds) >= 2, JSON.stringify(holds));
  const [figures] = lockFigures(recorder.history, undefined, T0 + 1000);
  const labels = 'lock="/L",recipe="kazoo-lock"';
  assert.equal(got.get(`zookeeper_lock_acquisitions_total{${labels}}`), figures.acquisitions);
  assert.equal(got.get(`zookeeper_lock_hold_seconds_count{${labels}}`), closedExact(holds));
  assert.equal(got.get(`zookeeper_lock_wait_seconds_count{${labels}}`), closedExact(waits));
  assert.equal(got.get(`zookeeper_lock_bounded_intervals_total{${labels},role="hold"}`), closedBound(holds));
  assert.equal(got.get(`zookeeper_lock_bounded_intervals_total{${labels},role="wait"}`), closedBound(waits));
  assert.equal(got.get('zookeeper_lock_monitor_gaps_total'), 1);
  assert.equal(got.get('zookeeper_lock_recorder_connected'), 1);
  assert.equal(got.get('zookeeper_lock_queue_length{lock="/L"}'), 0);
  assert.equal(got.get('zookeeper_lock_held_seconds{lock="/L"}'), 0);
  // One series per lock: no label names a node, a session or a client.
  const labelNames = new Set([...got.keys()].flatMap((key) => [...key.matchAll(/[{,]([a-z_]+)="/g)].map((m) => m[1])));
  assert.deepEqual([...labelNames].sort(), ['le', 'lock', 'recipe', 'role']);
  assert.ok(![...got.keys()].some((key) => /0x[abcd]\b|"[abcd]"/.test(key)), 'a session or a node in a label');
});

test('session losses: a hold or a wait whose session expired, told when closed or later', () => {
  const metrics = new LockMetrics();
  const hold = interval(1, '/L', 'hold', T0, T0 + 10);
  metrics.note({ type: 'open', interval: { ...hold, end: undefined } });
  metrics.note({ type: 'close', interval: { ...hold, ended: 'unknown' } });
  metrics.note({ type: 'ended', interval: { ...hold, ended: 'sessionEnded' } });
  const wait = { ...interval(2, '/L', 'wait', T0, T0 + 10), ended: 'sessionEnded' as const };
  metrics.note({ type: 'close', interval: wait });
  const got = samples(metrics.render('text'));
  assert.equal(got.get('zookeeper_lock_session_losses_total{lock="/L",recipe="unknown",role="hold"}'), 1);
  assert.equal(got.get('zookeeper_lock_session_losses_total{lock="/L",recipe="unknown",role="wait"}'), 1);
});

test('--metrics addresses: loopback unless a host is given; a bad one refused in one line', () => {
  assert.deepEqual(listenAddressOf('9464'), { host: '127.0.0.1', port: 9464 });
  assert.deepEqual(listenAddressOf(':9464'), { host: '127.0.0.1', port: 9464 });
  assert.deepEqual(listenAddressOf('0.0.0.0:9464'), { host: '0.0.0.0', port: 9464 });
  assert.deepEqual(listenAddressOf('[::1]:9464'), { host: '::1', port: 9464 });
  assert.deepEqual(listenAddressOf('metrics.example:80'), { host: 'metrics.example', port: 80 });
  for (const bad of ['', 'host', 'host:', ':70000', '1.2.3.4:-1', '::1:9464', 'a b:1']) {
    assert.throws(() => listenAddressOf(bad), (error: Error) => error instanceof UsageError && !error.message.includes('\n'), bad);
  }
});

test('--metrics on a port in use: one line that says so; a free one serves /metrics only', async () => {
  const taken = net.createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const { port } = taken.address() as net.AddressInfo;
  try {
    await assert.rejects(MetricsServer.listen({ host: '127.0.0.1', port }, new LockMetrics()), (error: Error) => error.message === `cannot serve metrics on 127.0.0.1:${port}: the port is in use`);
  } finally {
    taken.close();
  }
  const server = await MetricsServer.listen({ host: '127.0.0.1', port: 0 }, new LockMetrics());
  try {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    const status = (url: string) => new Promise<number>((resolve, reject) => http.get(url, (r) => { r.resume(); resolve(r.statusCode ?? 0); }).on('error', reject));
    assert.equal(await status(server.url), 200);
    assert.equal(await status(server.url.replace('/metrics', '/other')), 404);
  } finally {
    server.close();
  }
});
