// `zooscope watches --watch --metrics` scraped by a real Prometheus: a session leaking data watches is the top
// session series with its client address, the member's data-watch gauge counts its watches, the top sets stay
// bounded by --top, and a hostile watched path stays a valid exposition (promtool) that Prometheus stores as it is.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { sharedCliBundle } from '../support/clients/cliBundle';
import { HOSTILE_NAMES } from '../support/fixtures/hostileFixture';
import { freePort } from '../support/ports';
import { endsWithTestProcess, exitOf } from '../support/processes';
import { httpGet, TestPrometheus } from '../support/servers/prometheus';
import { eventually } from '../support/waiting';
import { connectOtherClient, OtherClient } from '../support/clients/zkClient';
import { startStandalone, ZkCluster } from '../support/servers/zkServer';

const LEAKED = 300;
const TOP = 3;
const HOSTILE_PATH = `/leak/q"uo\\te ${HOSTILE_NAMES.rtlOverride}`;

describe('the watch census as metrics, scraped by a real Prometheus', () => {
  let zk: ZkCluster;
  let census: ChildProcess;
  let censusErr = '';
  let prometheus: TestPrometheus;
  let leaky: OtherClient;
  const others: OtherClient[] = [];
  let metricsUrl: string;

  before(async () => {
    const [cli, server] = await Promise.all([sharedCliBundle(), startStandalone({ adminServer: false, fourLetterWhitelist: '*' })]);
    zk = server;
    leaky = await connectOtherClient(zk.connectString);
    await leaky.mkdirp('/leak');
    await leaky.create(HOSTILE_PATH, 'x');
    await leaky.watch(HOSTILE_PATH, 'exists');
    for (let i = 0; i < LEAKED - 1; i++) await leaky.watch(`/leak/n${i}`, 'exists');
    // A few quieter sessions, more than --top.
    for (let i = 0; i < TOP + 2; i++) {
      const other = await connectOtherClient(zk.connectString);
      others.push(other);
      for (let j = 0; j <= i; j++) await other.watch(`/leak/q${i}-${j}`, 'exists');
    }
    const port = await freePort();
    metricsUrl = `http://127.0.0.1:${port}/metrics`;
    census = spawn(process.execPath, [cli, 'watches', zk.connectString, '--watch', '--interval', '1', '--metrics', `:${port}`, '--top', String(TOP)], { stdio: ['ignore', 'pipe', 'pipe'] });
    endsWithTestProcess(census);
    census.stdout!.resume();
    census.stderr!.on('data', (chunk: Buffer) => { censusErr += chunk.toString(); });
    await eventually(() => censusErr.includes(`metrics on ${metricsUrl}`), 60000, `the census serving (stderr: ${censusErr})`);
    prometheus = await TestPrometheus.start('zooscope-watches', [`127.0.0.1:${port}`]);
  });

  after(async () => {
    for (const other of [leaky, ...others]) other?.close();
    if (census) {
      const exited = exitOf(census);
      census.kill('SIGTERM');
      await exited;
    }
    await prometheus?.stop();
    await zk?.stop();
  });

  test('the leaking session is the top series, with its client address; the member counts its watches; top sets bounded', async () => {
    await eventually(async () => (await prometheus.valueOf('max(zookeeper_watch_census_session_watches)')) === LEAKED, 60000, `a census holding the leak (Prometheus: ${prometheus.log}; census: ${censusErr})`);
    const [top] = await prometheus.query('topk(1, zookeeper_watch_census_session_watches)');
    assert.equal(top.metric.session, leaky.sessionId);
    assert.match(top.metric.client_address, /^127\.0\.0\.1:\d+$/);
    assert.equal(top.metric.server, zk.connectString);
    const member = await prometheus.valueOf(`zookeeper_watch_census_data_watches{server="${zk.connectString}"}`);
    assert.ok(member !== undefined && member >= LEAKED, `member gauge ${member}`);
    assert.equal((await prometheus.query('zookeeper_watch_census_session_watches')).length, TOP, 'only --top sessions get a series');
    assert.ok((await prometheus.query('zookeeper_watch_census_path_watchers')).length <= TOP);
    assert.ok((await prometheus.valueOf('zookeeper_watch_census_runs_total'))! >= 1);
    assert.equal(await prometheus.valueOf('zookeeper_watch_census_member_listed'), 1);
  });

  test('a hostile watched path stays a valid exposition: promtool accepts it, Prometheus stores it as it is', async () => {
    // Watchers of the hostile path: only the leaky session, so it must be among the top paths to be shown: give it two more.
    await others[0].watch(HOSTILE_PATH, 'exists');
    await others[1].watch(HOSTILE_PATH, 'getData');
    await eventually(async () => (await prometheus.query('zookeeper_watch_census_path_watchers')).some((s) => s.metric.path === HOSTILE_PATH), 60000, 'the hostile path scraped');
    const scraped = await httpGet(metricsUrl, { accept: 'text/plain;version=0.0.4' });
    assert.equal(scraped.status, 200);
    const check = spawnSync('promtool', ['check', 'metrics'], { input: scraped.body, encoding: 'utf8' });
    assert.equal(check.status, 0, `promtool check metrics: ${check.stdout}${check.stderr}`);
    const open = await httpGet(metricsUrl, { accept: 'application/openmetrics-text;version=1.0.0' });
    assert.match(open.type, /^application\/openmetrics-text/);
    assert.match(open.body, /# EOF\n$/);
  });
});
