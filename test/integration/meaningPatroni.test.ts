// Patroni run for real (Debian's patroni 3.0.2, kazoo, PostgreSQL): a leader and a replica on a test ZooKeeper.
// What ZooScope decodes from /service/<scope>/… equals what `patronictl list` reports (leader, roles, states,
// timelines), and the leader key is recognised as Patroni's election.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { decodeMeaning, meaningJson } from '../../src/zk/meaning';
import { fixedLeaderRecipe } from '../../src/zk/analysis/systemElections';
import { ZkSession } from '../../src/zk/session/session';
import { PatroniMember, patronictlList, PatronictlRow, startPatroniMember, stopPatroniMember } from '../support/systems/patroni';
import { eventually } from '../support/waiting';
import { startStandalone, ZkCluster } from '../support/zkServer';

const SCOPE = 'pgtest';

describe('Patroni, decoded', () => {
  let zk: ZkCluster;
  let session: ZkSession;
  const members: PatroniMember[] = [];
  let rows: PatronictlRow[] = [];

  before(async () => {
    zk = await startStandalone();
    const address = zk.connectString.split(',')[0];
    members.push(await startPatroniMember(SCOPE, 'pg1', address));
    // The first member bootstraps the cluster and leads; the second then clones it and streams from it.
    await eventually(async () => (rows = await patronictlList(members[0])).some((r) => r.Role === 'Leader' && r.State === 'running'), 120000, 'a running leader');
    members.push(await startPatroniMember(SCOPE, 'pg2', address));
    await eventually(async () => (rows = await patronictlList(members[0])).filter((r) => r.State === 'running' || r.State === 'streaming').length === 2, 180000, 'two running members');
    session = new ZkSession({ connectString: zk.connectString, sessionTimeoutMs: 15000, requestTimeoutMs: 5000 });
    await session.open();
  });

  after(async () => {
    session?.close();
    for (const m of members.reverse()) await stopPatroniMember(m);
    await zk?.stop();
  });

  const decoded = async (path: string) => {
    const { data } = await session.getData(path);
    const meaning = decodeMeaning(path, data);
    assert.ok(meaning && !meaning.raw, `${path}: ${meaning?.raw?.reason ?? 'not recognised'}`);
    assert.equal(meaning.system, 'patroni');
    return { meaning, data };
  };

  test('the leader key names the member patronictl shows as Leader, and is Patroni\'s election', async () => {
    const leader = rows.find((r) => r.Role === 'Leader')!;
    const { meaning, data } = await decoded(`/service/${SCOPE}/leader`);
    assert.equal(meaning.summary, `leader ${leader.Member}`);
    assert.equal(meaning.election, 'leader');
    assert.equal(fixedLeaderRecipe(`/service/${SCOPE}/leader`, data), 'patroni-leader');
  });

  test('each member decodes to the role, state, timeline and address patronictl lists', async () => {
    const names = (await session.getChildren(`/service/${SCOPE}/members`)).children.sort();
    assert.deepEqual(names, rows.map((r) => r.Member).sort());
    for (const row of rows) {
      const fields = meaningJson((await decoded(`/service/${SCOPE}/members/${row.Member}`)).meaning).fields;
      // patronictl shows the primary as "Leader" and a standby as "Replica"; the member key holds Patroni's own role.
      assert.equal(row.Role === 'Leader', fields.role === 'master' || fields.role === 'primary', `${row.Member}: ${String(fields.role)}`);
      assert.equal(fields.state, row.State);
      if (row.TL !== undefined) assert.equal(fields.timeline, String(row.TL));
      assert.match(String(fields.conn_url), new RegExp(`//${row.Host.replace(/\./g, '\\.')}/`));
    }
  });

  test('the dynamic configuration and the initialize key decode', async () => {
    const config = meaningJson((await decoded(`/service/${SCOPE}/config`)).meaning).fields;
    assert.equal(config.ttl, '30');
    assert.equal(config.loop_wait, '2');
    assert.match((await decoded(`/service/${SCOPE}/initialize`)).meaning.summary, /^system identifier \d+$/);
  });
});
