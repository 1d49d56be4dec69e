// Known systems' elections are named by system in the lock analysis: fixed leader nodes confirmed by their bytes
// (fixtures from test/support/fixtures/decodedFixtures), ClickHouse's and Solr's Overseer queues by path and names.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { buildAnalysis } from '../../src/zk/analysis';
import { recognizeQueue } from '../../src/zk/analysis/recipes';
import { fixedLeaderRecipe } from '../../src/zk/analysis/systemElections';
import { bytes, fixtures } from '../support/fixtures/decodedFixtures';

const fixture = (name: string) => fixtures.find((f) => f.name === name)!;
const seq = (n: number) => String(n).padStart(10, '0');

test('fixed leader nodes whose bytes are the system\'s leader are that system\'s election', () => {
  for (const [name, recipe] of [['patroni leader', 'patroni-leader'], ['hbase master', 'hbase-master'],
    ['hadoop elector lock', 'hadoop-ha-elector'], ['kafka controller', 'kafka-controller']] as const) {
    const f = fixture(name);
    assert.equal(fixedLeaderRecipe(f.path, f.data), recipe, name);
  }
});

test('the path alone does not name the system: other bytes stay a generic fixed leader', () => {
  assert.equal(fixedLeaderRecipe('/hbase/master', bytes('not protobuf')), 'fixed-leader');
  assert.equal(fixedLeaderRecipe('/controller', bytes('id')), 'fixed-leader');
  assert.equal(fixedLeaderRecipe('/hadoop-ha/ns1/ActiveStandbyElectorLock', undefined), 'fixed-leader');
  // A breadcrumb is not a leader.
  const crumb = fixture('hadoop breadcrumb');
  assert.equal(fixedLeaderRecipe(crumb.path.replace('ActiveBreadCrumb', 'master'), crumb.data), 'fixed-leader');
});

test('ClickHouse\'s leader_election queue and Solr\'s Overseer election are recognised by system', () => {
  const names = [`leader_election-${seq(3)}`, `leader_election-${seq(4)}`];
  assert.equal(recognizeQueue(names, '/clickhouse/tables/01/db/t/leader_election')?.recipe, 'clickhouse-leader-election');
  // The same names elsewhere are an unknown sequential queue, as before.
  assert.equal(recognizeQueue(names, '/app/queue')?.recipe, 'unknown');
  const overseer = [`72057594037927936-10.0.0.5:8983_solr-n_${seq(0)}`, `72057594037927937-10.0.0.6:8983_solr-n_${seq(1)}`];
  assert.equal(recognizeQueue(overseer, '/solr/overseer_elect/election')?.recipe, 'solr-overseer');
  assert.equal(recognizeQueue(overseer, '/collections/c/leader_elect/shard1/election')?.recipe, 'solr-election');
});

test('in the analysis, a ClickHouse election has one leader (the lowest number) and candidates behind it', () => {
  const dir = '/clickhouse/tables/01/db/t/leader_election';
  const names = [`leader_election-${seq(4)}`, `leader_election-${seq(3)}`];
  const recognition = recognizeQueue(names, dir)!;
  const analysis = buildAnalysis({
    root: dir, takenAt: 1_800_000_000_000, heldTooLongMs: 3_600_000, ourSessions: [], tables: [],
    queues: [{ shape: 'simple', path: dir, recipe: recognition.recipe, family: recognition.family,
      nodes: names.map((name, i) => ({ name, path: `${dir}/${name}`, ctime: 1_799_999_000_000, owner: BigInt(0x20 + i), data: Buffer.from(`r${i}`) })) }],
  });
  const q = analysis.queues[0];
  assert.equal(q.recipe, 'clickhouse-leader-election');
  assert.deepEqual(q.participants.map((p) => [p.name, p.role, p.kind]), [[`leader_election-${seq(3)}`, 'leader', 'candidate'], [`leader_election-${seq(4)}`, 'waiter', 'candidate']]);
  assert.ok(!q.anomalies.some((a) => a.kind === 'unknown-recipe'));
  const hbase = fixture('hbase master');
  const fixed = buildAnalysis({
    root: hbase.path, takenAt: 1_800_000_000_000, heldTooLongMs: 3_600_000, ourSessions: [], tables: [],
    queues: [{ shape: 'fixed', path: hbase.path, node: { name: 'master', path: hbase.path, ctime: 1, owner: 0x31n, data: Buffer.from(hbase.data) } }],
  });
  assert.equal(fixed.queues[0].recipe, 'hbase-master');
});
