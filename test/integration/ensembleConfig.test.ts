// The membership in /zookeeper/config of a real 3-server ensemble, read through a session whose connect string names
// only one server, and the members beyond it asked for their health.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as net from 'node:net';
import { ensembleMembers, parseEnsembleConfig, readEnsembleConfig } from '../../src/zk/servers/ensembleConfig';
import { getEnsembleStatus } from '../../src/zk/servers/ensembleStatus';
import { ZkSession } from '../../src/zk/session/session';
import { connectOtherClient } from '../support/clients/zkClient';
import { checkEnsemble } from '../../src/zk/servers/consistencyCheck';
import { freePort } from '../support/ports';
import { startEnsemble, ZkCluster } from '../support/servers/zkServer';

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
      // The same lines with client addresses (the 3.5+ form `;host:port`) make every member askable, once allowed.
      const lines = config.members.map((m, i) => `server.${m.id}=${m.host}:${m.quorumPort}:${m.electionPort}:participant;${zk.members[i].address}`);
      const withClients = ensembleMembers([first], parseEnsembleConfig(lines.join('\n')), zk.members.map((m) => m.address));
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

describe('a member /zookeeper/config names and the connect string does not', () => {
  let zk: ZkCluster;
  let listener: Awaited<ReturnType<typeof recordingListener>>;
  before(async () => {
    listener = await recordingListener();
    // The servers' own config lists an observer that is not running, with a client address the test owns.
    zk = await startEnsemble(3, { extraServerLines: [`server.4=127.0.0.2:${await freePort()}:${await freePort()}:observer;127.0.0.2:${listener.port}`] });
  });
  after(async () => { await zk?.stop(); await listener?.close(); });

  test('is not contacted by the Ensemble view\'s status nor Check Members Agree unless the user allowed it', async () => {
    const named = zk.members.slice(0, 2).map((m) => m.address).join(',');
    const session = new ZkSession({ connectString: named, requestTimeoutMs: 10000 });
    await session.open();
    try {
      const config = await readEnsembleConfig(session);
      assert.ok(config?.members.some((m) => m.client === `127.0.0.2:${listener.port}`), 'the config names the listener');
      // What the Ensemble view and Check Members Agree do, with no answer from the user.
      const servers = named.split(',');
      const { members, unnamed } = ensembleMembers(servers, config);
      const extraMembers = members.filter((m) => m.source === 'config').map((m) => m.address);
      const statuses = await getEnsembleStatus(named, { adminPort: listener.port, timeoutMs: 5000, members });
      const check = await checkEnsemble(named, { adminPort: listener.port, extraMembers, thresholds: { deadlineMs: 5000 } });
      assert.deepEqual(statuses.map((s) => s.address), servers);
      assert.deepEqual(check.members.map((m) => m.address), servers);
      assert.deepEqual(listener.connections, [], 'the member the user did not name was not contacted');
      assert.deepEqual(unnamed.map((m) => m.client), [`127.0.0.2:${listener.port}`], 'it is told apart as not asked');
      // Once allowed, it is asked (so the listener would have seen the asking above).
      const allowed = ensembleMembers(servers, config, [`127.0.0.2:${listener.port}`]);
      await getEnsembleStatus(named, { adminPort: listener.port, timeoutMs: 5000, members: allowed.members });
      assert.notDeepEqual(listener.connections, []);
    } finally {
      session.close();
    }
  });
});
