// ClickHouse run for real (Debian's clickhouse-server) with two replicas of one ReplicatedMergeTree table on a
// test ZooKeeper: what ZooScope decodes from the table's nodes equals what ClickHouse reports about them
// (system.replicas, system.zookeeper).
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { decodeNode, decodedJson } from '../../src/zk/decoders';
import { recognizeQueue } from '../../src/zk/analysis/recipes';
import { ZkSession } from '../../src/zk/session/session';
import { ClickHouse, startClickHouse } from '../support/systems/clickhouse';
import { startStandalone, ZkCluster } from '../support/servers/zkServer';

const TABLE = '/clickhouse/tables/01/events';

describe('ClickHouse replicated tables, decoded', () => {
  let zk: ZkCluster;
  let ch: ClickHouse;
  let session: ZkSession;

  before(async () => {
    zk = await startStandalone();
    ch = await startClickHouse(zk.connectString.split(',')[0]);
    for (const replica of ['r1', 'r2']) {
      await ch.query(`CREATE TABLE events_${replica} (d Date, id UInt32) ENGINE = ReplicatedMergeTree('${TABLE}', '${replica}', d, id, 8192)`);
    }
    await ch.query("INSERT INTO events_r1 VALUES ('2026-11-26', 1), ('2026-11-26', 2)");
    await ch.query("INSERT INTO events_r1 VALUES ('2026-11-26', 3)");
    await ch.query('SYSTEM SYNC REPLICA events_r2');
    session = new ZkSession({ connectString: zk.connectString, sessionTimeoutMs: 15000, requestTimeoutMs: 5000 });
    await session.open();
  });

  after(async () => {
    session?.close();
    await ch?.stop();
    await zk?.stop();
  });

  const decodedAt = async (path: string) => {
    const { data } = await session.getData(path);
    const decoded = decodeNode(path, data);
    assert.ok(decoded && !decoded.raw, `${path}: ${decoded?.raw?.reason ?? 'not recognised'}`);
    assert.equal(decoded.system, 'clickhouse');
    return decoded;
  };

  test('replica addresses, activity and log pointers match system.replicas', async () => {
    const rows = (await ch.query("SELECT replica_name, is_session_expired, log_pointer, active_replicas FROM system.replicas WHERE database = 'default' ORDER BY replica_name"))
      .trim().split('\n').map((l) => l.split('\t'));
    assert.deepEqual(rows.map((r) => r[0]), ['r1', 'r2']);
    for (const [replica, , logPointer] of rows) {
      const host = await decodedAt(`${TABLE}/replicas/${replica}/host`);
      assert.equal(decodedJson(host).fields.tcp_port, String(ch.tcpPort));
      assert.equal(host.summary, `replica ${replica} · 127.0.0.1:${ch.tcpPort}`);
      assert.equal((await decodedAt(`${TABLE}/replicas/${replica}/is_active`)).summary, `replica ${replica} active`);
      assert.equal((await decodedAt(`${TABLE}/replicas/${replica}/log_pointer`)).summary, `replica ${replica} at log entry ${logPointer}`);
    }
  });

  test('every replication log entry decodes, with the parts system.zookeeper lists', async () => {
    const listed = (await ch.query(`SELECT name, value FROM system.zookeeper WHERE path = '${TABLE}/log' ORDER BY name`)).trim().split('\n');
    assert.ok(listed.length >= 2, 'two inserts make two log entries');
    const parts = (await ch.query("SELECT name FROM system.parts WHERE table = 'events_r1' AND active ORDER BY name")).trim().split('\n');
    const decodedParts: string[] = [];
    for (const line of listed) {
      const name = line.split('\t')[0];
      const decoded = await decodedAt(`${TABLE}/log/${name}`);
      const fields = decodedJson(decoded).fields;
      assert.equal(fields['source replica'], 'r1');
      assert.equal(fields.type, 'get');
      decodedParts.push(String(fields['new part']));
    }
    assert.deepEqual(decodedParts.sort(), parts.sort());
  });

  test('deduplication blocks name the parts they made', async () => {
    const blocks = (await ch.query(`SELECT name, value FROM system.zookeeper WHERE path = '${TABLE}/blocks' ORDER BY name`)).trim().split('\n').map((l) => l.split('\t'));
    assert.equal(blocks.length, 2);
    for (const [block, part] of blocks) assert.equal((await decodedAt(`${TABLE}/blocks/${block}`)).summary, `part ${part}`);
  });

  test('the leader election is recognised as ClickHouse\'s, its candidates name the replicas', async () => {
    const candidates = (await session.getChildren(`${TABLE}/leader_election`)).children;
    assert.equal(recognizeQueue(candidates, `${TABLE}/leader_election`)?.recipe, 'clickhouse-leader-election');
    const replicas = [];
    // In sequence order: the lowest number leads (ZooKeeper's election recipe, which this ClickHouse uses).
    for (const name of [...candidates].sort()) replicas.push(decodedJson(await decodedAt(`${TABLE}/leader_election/${name}`)).fields.replica);
    assert.deepEqual([...replicas].sort(), ['r1', 'r2']);
    const leaders = (await ch.query('SELECT replica_name FROM system.replicas WHERE is_leader')).trim().split('\n');
    assert.deepEqual(leaders, [replicas[0]]);
  });
});
