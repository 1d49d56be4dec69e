// The membership in /zookeeper/config of a real 3-server ensemble, read through a session whose connect string names
// only one server, and the members beyond it asked for their health.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { ensembleMembers, parseEnsembleConfig, readEnsembleConfig } from '../../src/zk/servers/ensembleConfig';
import { getEnsembleStatus } from '../../src/zk/servers/ensembleStatus';
import { ZkSession } from '../../src/zk/session/session';
import { startEnsemble, ZkCluster } from '../support/zkServer';

describe('ensemble members from /zookeeper/config', () => {
  let zk: ZkCluster;
  before(async () => { zk = await startEnsemble(3); });
  after(async () => { await zk?.stop(); });

  test('a session on one server reads all three members; those beyond the connect string are asked too', async () => {
    const first = zk.members[0].address;
    const session = new ZkSession({ connectString: first, requestTimeoutMs: 10000 });
    await session.open();
    try {
      const config = await readEnsembleConfig(session);
      assert.ok(config, '/zookeeper/config is empty');
      assert.deepEqual(config.members.map((m) => [m.id, m.host, m.role]), [[1, '127.0.0.1', 'participant'], [2, '127.0.0.1', 'participant'], [3, '127.0.0.1', 'participant']]);
      // This test ensemble's zoo.cfg gives client ports apart (clientPort=), so its lines carry no client address:
      // the members are known, not askable.
      const { members, withoutClient } = ensembleMembers([first], config);
      assert.deepEqual(members.map((m) => m.source), ['connectString']);
      assert.equal(withoutClient.length, 3);
      // The same lines with client addresses (the 3.5+ form `;host:port`) make every member askable.
      const lines = config.members.map((m, i) => `server.${m.id}=${m.host}:${m.quorumPort}:${m.electionPort}:participant;${zk.members[i].address}`);
      const withClients = ensembleMembers([first], parseEnsembleConfig(lines.join('\n')));
      assert.deepEqual(withClients.members.map((m) => m.source), ['both', 'config', 'config']);
      const statuses = await getEnsembleStatus(first, { adminPort: 1, timeoutMs: 5000, members: withClients.members });
      assert.deepEqual(statuses.map((s) => [s.address, s.source, s.reachable]), zk.members.map((m, i) => [m.address, i === 0 ? 'both' : 'config', true]));
      assert.deepEqual(statuses.map((s) => s.mode).sort(), ['follower', 'follower', 'leader']);
    } finally {
      session.close();
    }
  });
});
