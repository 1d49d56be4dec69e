// Patroni run for real (Debian's patroni 3.0.2, kazoo, PostgreSQL): a leader and a replica on a test ZooKeeper.
// What ZooScope decodes from /service/<scope>/… equals what `patronictl list` reports (leader, roles, states,
// timelines, lag), and the leader key is recognised as Patroni's election.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { decodedDocument, decodeNode, Decoded, decodedJson, readDecodeContext, sessionContextRead } from '../../src/zk/decoders';
import { DecodedMarks } from '../../src/vscode/core/tree/decodedMarks';
import { plainTranslate } from '../../src/zk/decoders/types';
import { ConnectionNode, ZnodeNode } from '../../src/zk/tree/treeNodes';
import { fixedLeaderRecipe } from '../../src/zk/analysis/systemElections';
import { ZkSession } from '../../src/zk/session/session';
import { PatroniMember, patronictlList, PatronictlRow, startPatroniMember, stopPatroniMember } from '../support/systems/patroni';
import { eventually, waitFor } from '../support/waiting';
import { startStandalone, ZkCluster } from '../support/servers/zkServer';

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

  const decodedAt = async (path: string) => {
    const { data } = await session.getData(path);
    const decoded = decodeNode(path, data);
    assert.ok(decoded && !decoded.raw, `${path}: ${decoded?.raw?.reason ?? 'not recognised'}`);
    assert.equal(decoded.system, 'patroni');
    return { decoded, data };
  };

  test('the leader key names the member patronictl shows as Leader, and is Patroni\'s election', async () => {
    const leader = rows.find((r) => r.Role === 'Leader')!;
    const { decoded, data } = await decodedAt(`/service/${SCOPE}/leader`);
    assert.equal(decoded.summary, `leader ${leader.Member}`);
    assert.equal(decoded.election, 'leader');
    assert.equal(fixedLeaderRecipe(`/service/${SCOPE}/leader`, data), 'patroni-leader');
  });

  test('each member decodes to the role, state, timeline and address patronictl lists', async () => {
    const names = (await session.getChildren(`/service/${SCOPE}/members`)).children.sort();
    assert.deepEqual(names, rows.map((r) => r.Member).sort());
    for (const row of rows) {
      const fields = decodedJson((await decodedAt(`/service/${SCOPE}/members/${row.Member}`)).decoded).fields;
      // patronictl shows the primary as "Leader" and a standby as "Replica"; the member key holds Patroni's own role.
      assert.equal(row.Role === 'Leader', fields.role === 'master' || fields.role === 'primary', `${row.Member}: ${String(fields.role)}`);
      assert.equal(fields.state, row.State);
      if (row.TL !== undefined) assert.equal(fields.timeline, String(row.TL));
      assert.match(String(fields.conn_url), new RegExp(`//${row.Host.replace(/\./g, '\\.')}/`));
    }
  });

  test('the dynamic configuration and the initialize key decode', async () => {
    const config = decodedJson((await decodedAt(`/service/${SCOPE}/config`)).decoded).fields;
    assert.equal(config.ttl, '30');
    assert.equal(config.loop_wait, '2');
    assert.match((await decodedAt(`/service/${SCOPE}/initialize`)).decoded.summary, /^system identifier \d+$/);
  });

  const MIB = 1024 * 1024;
  const statusOptime = async () => (JSON.parse((await session.getData(`/service/${SCOPE}/status`)).data.toString('utf8')) as { optime: number }).optime;

  test('the replica\'s lag is the status\'s optime less its own position, as patronictl lists it; the leader has none', async () => {
    // The status and the members move while the cluster runs: a look counts when the status read before and after
    // agree, and patronictl (reading a moment apart from us) shows the same figure for every lag we could compute.
    const look = await waitFor('a steady look at the members', async () => {
      const optime = await statusOptime();
      const listed = await patronictlList(members[0]);
      const docs = await Promise.all(listed.map(async (row) => {
        const path = `/service/${SCOPE}/members/${row.Member}`;
        const { data } = await session.getData(path);
        const { decoded } = decodedDocument(path, data, await readDecodeContext(path, sessionContextRead(session)));
        return { row, fields: decoded!.fields, summary: decoded!.summary };
      }));
      if (await statusOptime() !== optime) return undefined;
      const disagrees = docs.some(({ row, fields }) => fields.lag !== undefined && row['Lag in MB'] !== Math.round(Number(fields.lag) / MIB));
      return disagrees ? undefined : { optime, docs };
    }, 120000, 200);
    assert.equal(look.docs.length, 2);
    for (const { row, fields, summary } of look.docs) {
      if (row.Role === 'Leader') {
        assert.equal(fields.lag, undefined, `${row.Member} is the leader`);
        assert.doesNotMatch(summary, /lag/);
        continue;
      }
      assert.match(summary, /^replica · (running|streaming) · lag \d+(\.\d)? (B|KiB|MiB|GiB)$/);
      const lag = Number(fields.lag);
      assert.ok(Number.isSafeInteger(lag) && lag >= 0, `${row.Member}: lag ${String(fields.lag)}`);
      assert.equal(lag, Math.max(0, look.optime - Number(fields.xlog_location)));
      assert.equal(fields.leader_optime, String(look.optime));
    }
  });

  test('the tree reads the status once for the members\' listing and draws the replica\'s lag', async () => {
    const reads: string[] = [];
    let pending = 0;
    const counting = {
      getData: (path: string) => {
        reads.push(path);
        pending++;
        return session.getData(path).finally(() => pending--);
      },
    } as unknown as ZkSession;
    const marks = new DecodedMarks(plainTranslate, () => undefined);
    const root = new ConnectionNode('c');
    const names = (await session.getChildren(`/service/${SCOPE}/members`)).children;
    const nodes = await Promise.all(names.map(async (name) => {
      const path = `/service/${SCOPE}/members/${name}`;
      return new ZnodeNode('c', path, name, (await session.exists(path))!, root);
    }));
    const drawn = () => nodes.map((n) => marks.get(n, counting));
    drawn();
    // Until every read the drawing started has answered and every member is decoded; then what the answers chained.
    await waitFor('the members\' reads', () => Promise.resolve(pending === 0 && drawn().every((m) => m !== undefined)), 60000, 20);
    await new Promise((resolve) => setImmediate(resolve));
    const decodedNodes = drawn() as Decoded[];
    assert.equal(reads.filter((p) => p === `/service/${SCOPE}/status`).length, 1);
    assert.equal(decodedNodes.length, 2);
    for (const decoded of decodedNodes) {
      const fields = decodedJson(decoded).fields;
      if (fields.role === 'master' || fields.role === 'primary') assert.equal(fields.lag, undefined);
      else assert.match(decoded.summary, /^replica · (running|streaming) · lag /);
    }
  });
});
