// Reading who watches whom from real servers: the AdminServer, the four-letter words when it is off, a server that
// refuses the words, and a 3-server ensemble where waiters sit on different members.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as zookeeper from 'node-zookeeper-client';
import { analyzeLocks } from '../../src/zk/analysis';
import { getEnsembleStatus } from '../../src/zk/servers/ensembleStatus';
import { readServerTables } from '../../src/zk/servers/serverTables';
import { ZkSession } from '../../src/zk/session/session';
import { fourLetterWord } from '../support/ports';
import { startProxy } from '../support/fakes/tcpProxy';
import { connectOtherClient, OtherClient } from '../support/clients/zkClient';
import { startEnsemble, startStandalone, ZkCluster } from '../support/servers/zkServer';

const EPH_SEQ = zookeeper.CreateMode.EPHEMERAL_SEQUENTIAL;
const sessionOf = (c: OtherClient) => c.sessionId;
const dataWatch = (c: OtherClient, path: string) => c.watch(path, 'getData');

/** A holder and a waiter (getData watch on the holder's node) under `dir`. */
async function holderAndWaiter(connectHolder: string, connectWaiter: string, dir: string) {
  const holder = await connectOtherClient(connectHolder, 20000);
  const waiter = await connectOtherClient(connectWaiter, 20000);
  await holder.mkdirp(dir);
  const held = await holder.create(`${dir}/lock-`, 'h', EPH_SEQ);
  const waiting = await waiter.create(`${dir}/lock-`, 'w', EPH_SEQ);
  await dataWatch(waiter, held);
  return { holder, waiter, held, waiting, close: () => { holder.close(); waiter.close(); } };
}

/**
 * A deadline no AdminServer here misses, for the tests that are about reading it: with the default (3 s a command)
 * a loaded machine's late answer is replaced by the words, as designed (analysisThirdParty.test proves both ways).
 */
const PATIENT = 120000;

async function analyse(connectString: string, root: string, adminPorts?: Record<string, number>) {
  const session = new ZkSession({ connectString, requestTimeoutMs: 10000 });
  await session.open();
  try {
    return await analyzeLocks(session, root, { adminPorts, adminPort: adminPorts ? undefined : 1, serverTimeoutMs: adminPorts ? PATIENT : undefined });
  } finally {
    session.close();
  }
}

describe('server tables: AdminServer, four-letter words, refusal', () => {
  // One server with its AdminServer for the tests that need nothing else; each works under its own path.
  let zk: ZkCluster;
  before(async () => { zk = await startStandalone({ adminServer: true }); });
  after(async () => { await zk?.stop(); });

  test('AdminServer: exact session ids, watches and connections; the same through the words', async () => {
    const pair = await holderAndWaiter(zk.connectString, zk.connectString, '/t');
    try {
      const m = zk.members[0];
      const viaAdmin = await readServerTables({ host: '127.0.0.1', port: m.clientPort, adminPort: m.adminPort }, { timeoutMs: PATIENT });
      const viaWords = await readServerTables({ host: '127.0.0.1', port: m.clientPort });
      assert.equal(viaAdmin.via, 'admin');
      assert.equal(viaWords.via, 'fourLetterWords');
      for (const t of [viaAdmin, viaWords]) {
        assert.deepEqual(t.watches?.get(sessionOf(pair.waiter)), [pair.held], t.via);
        assert.ok(/^127\.0\.0\.1:\d+$/.test(t.connections?.get(sessionOf(pair.holder)) ?? ''), t.via);
        assert.deepEqual(t.ephemerals?.get(sessionOf(pair.holder)), [pair.held], t.via);
        assert.ok(t.trackedSessions?.has(sessionOf(pair.waiter)), t.via);
        assert.equal(t.monitor?.server_state, 'standalone');
      }
      assert.deepEqual([...viaAdmin.connections!].sort(), [...viaWords.connections!].sort());
      const [status] = await getEnsembleStatus(zk.connectString, { adminPort: m.adminPort, timeoutMs: PATIENT });
      assert.deepEqual([status.via, status.reachable, status.mode, status.version], ['admin', true, 'standalone', '3.8.0']);
      assert.equal(status.dataWatches, 1);
      assert.ok((status.connections ?? 0) >= 2 && (status.znodes ?? 0) > 0 && status.latencyMs !== undefined);
    } finally {
      pair.close();
    }
  });

  test('a data watch set while the tables are read does not hide a child watch (AdminServer and words)', async () => {
    // The child-watch count is the monitor's total minus the listed data watches: two answers, read apart. A
    // waiter's only child watch must not drop out of it because a data watch arrived in between (the analysis would
    // call that waiter stuck). Data watches the previous test's sessions may still hold count in both numbers.
    const waiter = await connectOtherClient(zk.connectString, 20000);
    const other = await connectOtherClient(zk.connectString, 20000);
    let watched = 0;
    const setDataWatch = async () => {
      const path = `/counted/data-${++watched}`;
      await other.create(path, '');
      await other.watch(path, 'getData');
    };
    const isTableRequest = (head: Buffer) => /^(GET \/commands\/watches |wchc)/.test(head.toString('latin1'));
    const holdTables = { holdRaw: (_: number, head: Buffer) => (isTableRequest(head) ? setDataWatch() : undefined) };
    const adminGate = await startProxy(zk.members[0].adminPort!, holdTables);
    const wordsGate = await startProxy(zk.members[0].clientPort, holdTables);
    try {
      await waiter.mkdirp('/counted/semaphore');
      await waiter.watch('/counted/semaphore', 'getChildren');
      for (const endpoint of [
        { host: '127.0.0.1', port: zk.members[0].clientPort, adminPort: adminGate.port },
        { host: '127.0.0.1', port: wordsGate.port },
      ]) {
        const before = watched;
        const t = await readServerTables(endpoint, { skipDump: true, timeoutMs: PATIENT });
        assert.equal(watched, before + 1, `a data watch was set during the ${t.via} reading`);
        assert.ok(t.totalWatches !== undefined && t.dataWatches !== undefined, JSON.stringify(t.monitor));
        assert.equal(t.totalWatches - t.dataWatches, 1, `${t.via}: the waiter's child watch is counted`);
      }
    } finally {
      waiter.close();
      other.close();
      await Promise.all([adminGate.close(), wordsGate.close()]);
    }
  });

  test('AdminServer off: the analysis falls back to four-letter words and still sees the edges', async () => {
    const zk = await startStandalone({ adminServer: false });
    const pair = await holderAndWaiter(zk.connectString, zk.connectString, '/t');
    try {
      const analysis = await analyse(zk.connectString, '/t');
      assert.equal(analysis.servers[0].via, 'fourLetterWords');
      const waiter = analysis.queues[0].participants[1];
      assert.deepEqual(waiter.watches, [{ path: pair.held, source: 'server' }]);
      assert.ok(waiter.clientAddress);
      const [status] = await getEnsembleStatus(zk.connectString, { adminPort: 1 });
      assert.deepEqual([status.via, status.mode, status.dataWatches], ['fourLetterWords', 'standalone', 1]);
    } finally {
      pair.close();
      await zk.stop();
    }
  });

  test('a server that refuses the words (whitelist srvr only): said so, edges inferred, no false anomalies', async () => {
    const zk = await startStandalone({ adminServer: false, fourLetterWhitelist: 'srvr' });
    const pair = await holderAndWaiter(zk.connectString, zk.connectString, '/t');
    try {
      assert.match(await fourLetterWord(zk.members[0].clientPort, 'wchc'), /not in the whitelist/);
      const analysis = await analyse(zk.connectString, '/t');
      assert.deepEqual([analysis.servers[0].via, analysis.servers[0].reason?.startsWith('refused')], ['none', true]);
      const waiter = analysis.queues[0].participants[1];
      assert.deepEqual(waiter.watches, [{ path: pair.held, source: 'inferred' }]);
      assert.equal(waiter.clientAddress, undefined);
      assert.deepEqual(analysis.queues[0].anomalies, []);
      const [status] = await getEnsembleStatus(zk.connectString, { adminPort: 1 });
      assert.equal(status.via, 'fourLetterWords');
      assert.equal(status.mode, 'standalone');
      assert.deepEqual([...(status.refusedWords ?? [])].sort(), ['mntr', 'wchs']);
    } finally {
      pair.close();
      await zk.stop();
    }
  });
});

describe('a 3-server ensemble: watches and connections live on the member each client uses', () => {
  let zk: ZkCluster;
  let adminPorts: Record<string, number>;
  before(async () => {
    zk = await startEnsemble(3, { adminServer: true });
    adminPorts = Object.fromEntries(zk.members.map((m) => [m.address, m.adminPort!]));
  });
  after(async () => { await zk?.stop(); });

  test('waiters on different members: every edge seen, every client located, the session tracker read on the leader', async () => {
    const [m1, m2, m3] = zk.members.map((m) => m.address);
    const holder = await connectOtherClient(m1, 20000);
    const w2 = await connectOtherClient(m2, 20000);
    const w3 = await connectOtherClient(m3, 20000);
    try {
      await holder.mkdirp('/ens/lock');
      const held = await holder.create('/ens/lock/lock-', 'h', EPH_SEQ);
      const p2 = await w2.create('/ens/lock/lock-', 'w2', EPH_SEQ);
      const p3 = await w3.create('/ens/lock/lock-', 'w3', EPH_SEQ);
      await dataWatch(w2, held);
      await dataWatch(w3, p2);
      // Each watch is on one member only.
      for (const [member, path] of [[zk.members[1], held], [zk.members[2], p2]] as const) {
        assert.match(await fourLetterWord(member.clientPort, 'wchp'), new RegExp(path));
        assert.doesNotMatch(await fourLetterWord(zk.members[0].clientPort, 'wchp'), new RegExp(path));
      }
      for (const withAdmin of [true, false]) {
        const analysis = await analyse(zk.connectString, '/ens/lock', withAdmin ? adminPorts : undefined);
        const q = analysis.queues[0];
        assert.deepEqual(q.participants.map((p) => p.path), [held, p2, p3]);
        assert.deepEqual(q.participants.slice(1).map((p) => p.watches), [[{ path: held, source: 'server' }], [{ path: p2, source: 'server' }]]);
        assert.deepEqual(analysis.servers.map((s) => s.via), Array(3).fill(withAdmin ? 'admin' : 'fourLetterWords'));
        const serverOf = (c: OtherClient) => analysis.sessions.find((s) => s.id === sessionOf(c))?.server;
        assert.deepEqual([serverOf(holder), serverOf(w2), serverOf(w3)], [m1, m2, m3]);
        assert.ok(q.participants.every((p) => p.clientAddress), JSON.stringify(q.participants));
        assert.deepEqual(q.anomalies, []);
      }
      const status = await getEnsembleStatus(zk.connectString, { adminPorts, timeoutMs: PATIENT });
      assert.deepEqual(status.map((s) => s.mode).sort(), ['follower', 'follower', 'leader']);
      assert.ok(status.every((s) => s.via === 'admin' && s.reachable));
      assert.deepEqual(status.map((s) => s.dataWatches), [0, 1, 1]);
    } finally {
      holder.close();
      w2.close();
      w3.close();
    }
  });

  test('a member down: reported unreachable, the others still answer', async () => {
    const member = zk.members[2];
    await member.stop();
    try {
      const status = await getEnsembleStatus(zk.connectString, { adminPorts, timeoutMs: 2000 });
      assert.deepEqual(status.map((s) => s.reachable), [true, true, false]);
      assert.ok(status[2].error);
      const analysis = await analyse(zk.members.slice(0, 2).map((m) => m.address).join(',') + `,${member.address}`, '/', adminPorts);
      assert.equal(analysis.servers[2].via, 'none');
      assert.match(analysis.servers[2].reason ?? '', /unreachable/);
    } finally {
      member.start();
      await member.waitServing();
    }
  });
});
