// The membership in /zookeeper/config of a real 3-server ensemble, read through a session whose connect string names
// only one server, and the members beyond it asked for their health.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as net from 'node:net';
import { ensembleMembers, parseEnsembleConfig, readEnsembleConfig } from '../../src/zk/servers/ensembleConfig';
import { getEnsembleStatus } from '../../src/zk/servers/ensembleStatus';
import { ZkSession } from '../../src/zk/session/session';
import { connectOtherClient } from '../support/zkClient';
import { startEnsemble, ZkCluster } from '../support/zkServer';

/** A TCP listener on 127.0.0.2 (loopback, apart from the servers' 127.0.0.1) that records every connection. */
async function recordingListener(): Promise<{ port: number; connections: string[]; close(): Promise<void> }> {
  const connections: string[] = [];
  const server = net.createServer((socket) => { connections.push(`${socket.remoteAddress}:${socket.remotePort}`); socket.destroy(); });
  await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(0, '127.0.0.2', resolve); });
  return {
    port: (server.address() as net.AddressInfo).port,
    connections,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

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

  test('under a chroot, the server\'s own /zookeeper/config is read: a tenant\'s /app/zookeeper/config names no host to ask', async () => {
    const listener = await recordingListener();
    const other = await connectOtherClient(zk.connectString);
    const first = zk.members[0].address;
    const session = new ZkSession({ connectString: first, chroot: '/app', requestTimeoutMs: 10000 });
    try {
      // What a tenant who may write under /app can do: a config naming its own host as a member with a client port.
      await other.mkdirp('/app/zookeeper');
      await other.create('/app/zookeeper/config', `server.9=127.0.0.2:1:2:participant;127.0.0.2:${listener.port}\nversion=100000000`);
      await session.open();
      // What the Ensemble view does: read the config, ask its members. The AdminServer port is the listener's too,
      // so either probe (AdminServer, four-letter words) of the tenant's host would show.
      const config = await readEnsembleConfig(session);
      const { members, withoutClient } = ensembleMembers([first], config);
      const statuses = await getEnsembleStatus(first, { adminPort: listener.port, timeoutMs: 5000, members });
      assert.deepEqual(listener.connections, []);
      assert.deepEqual(statuses.map((s) => [s.address, s.reachable]), [[first, true]]);
      assert.deepEqual(config?.members.map((m) => [m.id, m.host]), [[1, '127.0.0.1'], [2, '127.0.0.1'], [3, '127.0.0.1']]);
      assert.equal(withoutClient.length, 3);
    } finally {
      session.close();
      await other.removeRecursive('/app').catch(() => undefined);
      other.close();
      await listener.close();
    }
  });
});
