// Faults against real servers: nothing listening, something that is not ZooKeeper, a silent service, cancel,
// a server restart, losing an ensemble member, session expiry, and a process that must exit after close().
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as http from 'node:http';
import * as net from 'node:net';
import * as path from 'node:path';
import { ConnectFailure, SessionState, ZkSession } from '../../src/zk/session/session';
import { WatchEvent } from '../../src/zk/session/watchRegistry';
import { startEnsemble, startStandalone, ZkCluster } from '../support/servers/zkServer';
import { closeSessionAsTwin } from '../support/clients/lockHelpers';
import { freePort } from '../support/ports';
import { startProxy } from '../support/fakes/tcpProxy';
import { sleep } from '../support/waiting';
import { connectOtherClient, eventually, OtherClient } from '../support/clients/zkClient';

const count = (events: WatchEvent[], kind: WatchEvent['kind']) => events.filter((e) => e.kind === kind).length;

async function openFails(session: ZkSession, signal?: AbortSignal): Promise<{ failure: ConnectFailure; elapsed: number }> {
  const started = Date.now();
  try {
    await session.open(signal);
  } catch (error) {
    assert.ok(error instanceof ConnectFailure, `expected a ConnectFailure, got ${String(error)}`);
    assert.equal(session.state, 'closed');
    return { failure: error, elapsed: Date.now() - started };
  }
  session.close();
  assert.fail('open() succeeded');
}

function listen(server: net.Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)));
}

describe('connecting to something that is not a usable ZooKeeper', () => {
  const servers: net.Server[] = [];
  const sockets = new Set<net.Socket>();
  after(() => {
    for (const s of sockets) s.destroy();
    for (const s of servers) s.close();
  });

  /** Accepts connections and never says a word. */
  async function silentServer(): Promise<number> {
    const server = net.createServer((socket) => { sockets.add(socket); socket.on('error', () => undefined); });
    servers.push(server);
    return listen(server);
  }

  // The timeouts below are far longer than any test runs: a failure that waited for one would say 'timedOut' (or hang
  // until the runner's limit), so the reason alone shows what ended the wait, whatever the machine's speed.
  const NEVER_MS = 600_000;

  test('nobody listening: unreachable, every probe refused, long before the session timeout', async () => {
    const port = await freePort();
    const session = new ZkSession({ connectString: `127.0.0.1:${port},localhost:${port}`, sessionTimeoutMs: NEVER_MS });
    const { failure } = await openFails(session);
    assert.equal(failure.reason, 'unreachable');
    assert.equal(failure.probes.length, 2);
    assert.deepEqual(failure.probes.map((p) => p.outcome), ['refused', 'refused']);
  });

  test('an HTTP server: unreachable with the probe saying notZooKeeper', async () => {
    const server = http.createServer((_req, res) => res.end('hello'));
    server.on('connection', (s) => sockets.add(s));
    servers.push(server);
    const port = await listen(server);
    const session = new ZkSession({ connectString: `127.0.0.1:${port}`, sessionTimeoutMs: NEVER_MS });
    const { failure } = await openFails(session);
    assert.equal(failure.reason, 'unreachable');
    assert.equal(failure.probes[0]?.outcome, 'notZooKeeper', JSON.stringify(failure.probes));
  });

  test('a silent service: timedOut after about the session timeout, not forever', async () => {
    const port = await silentServer();
    const session = new ZkSession({ connectString: `127.0.0.1:${port}`, sessionTimeoutMs: 3000 });
    const { failure, elapsed } = await openFails(session);
    assert.equal(failure.reason, 'timedOut');
    assert.equal(failure.probes[0]?.outcome, 'timedOut');
    // Not before the session timeout; after it, by its own deadline rather than the runner's ("not forever").
    assert.ok(elapsed >= 2900, `took ${elapsed} ms for a 3000 ms session timeout`);
  });

  test('cancel through an AbortSignal: cancelled promptly', async () => {
    const port = await silentServer();
    const session = new ZkSession({ connectString: `127.0.0.1:${port}`, sessionTimeoutMs: NEVER_MS });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 700);
    const { failure } = await openFails(session, controller.signal);
    assert.equal(failure.reason, 'cancelled');
  });

  test('an already aborted signal: cancelled at once', async () => {
    const port = await silentServer();
    const session = new ZkSession({ connectString: `127.0.0.1:${port}`, sessionTimeoutMs: NEVER_MS });
    const { failure } = await openFails(session, AbortSignal.abort());
    assert.equal(failure.reason, 'cancelled');
    assert.ok(!failure.probes.length, 'nothing was tried');
  });
});

describe('a standalone server restarts within the session timeout', () => {
  let zk: ZkCluster;
  let other: OtherClient;
  let session: ZkSession;

  before(async () => {
    // A restart takes what the machine gives a JVM: the session outlives any (tickTime 6 s lets it ask for 120 s; a
    // busy run once took longer than the 12 s it had, and the session was rightly called lost).
    zk = await startStandalone({ tickTime: 6000 });
    other = await connectOtherClient(zk.connectString, 40000);
    await other.mkdirp('/restart');
    session = new ZkSession({ connectString: zk.connectString, sessionTimeoutMs: 120000, requestTimeoutMs: 5000 });
    await session.open();
  });

  after(async () => {
    session?.close();
    other?.close();
    await zk?.stop();
  });

  test('suspended → connected with the same session id, reconnected, resync, persistent watch re-added', async () => {
    const sessionId = session.sessionId;
    const states: SessionState[] = [];
    let reconnected = 0;
    session.on('state', (s: SessionState) => states.push(s));
    session.on('reconnected', () => reconnected++);
    const events: WatchEvent[] = [];
    await session.watches.watch('/restart', (e) => events.push(e));
    assert.equal(session.watches.persistent, true);

    const member = zk.members[0];
    await member.stop();
    await eventually(() => session.state === 'suspended', 30000, 'suspended');
    member.start();
    await member.waitServing();
    await eventually(() => session.state === 'connected', 60000, 'connected again');

    assert.deepEqual(states, ['suspended', 'connected']);
    assert.equal(reconnected, 1);
    assert.equal(session.sessionId, sessionId);
    assert.equal(count(events, 'resync'), 1);
    // The server dropped the persistent watch with the connection; it must have been re-added. The re-add is sent
    // as the session reconnects, unanswered yet: a read answered after it (this session's requests are answered in
    // order) means the watch is in place, as a listener's re-read on resync would find it. Without this, the other
    // client's create could reach the server first and its event be rightly missed.
    await session.exists('/restart');
    // The other client is node-zookeeper-client alone, which waits forever for a handshake on a socket the starting
    // server accepted before it served (what ZkSession's channel guards against): on a loaded machine it could hang
    // there. A new one, connected to the serving server, writes.
    other.close();
    other = await connectOtherClient(zk.connectString, 40000);
    await other.create('/restart/after');
    await eventually(() => count(events, 'childrenChanged') === 1, 3000, 'childrenChanged after the restart');
    await other.setData('/restart', 'x');
    await eventually(() => count(events, 'dataChanged') === 1, 3000, 'dataChanged after the restart');
    assert.deepEqual((await session.getChildren('/restart')).children, ['after']);
  });
});

describe('a 3-server ensemble loses the member the session is attached to', () => {
  let zk: ZkCluster;
  let other: OtherClient;
  let session: ZkSession;

  before(async () => {
    zk = await startEnsemble(3);
    other = await connectOtherClient(zk.connectString, 20000);
    await other.mkdirp('/ens');
    session = new ZkSession({ connectString: zk.connectString, sessionTimeoutMs: 15000, requestTimeoutMs: 8000 });
    await session.open();
  });

  after(async () => {
    session?.close();
    other?.close();
    await zk?.stop();
  });

  test('moves to another member with the same session id; reads and watches keep working', async () => {
    const sessionId = session.sessionId;
    const events: WatchEvent[] = [];
    await session.watches.watch('/ens', (e) => events.push(e));
    await other.create('/ens/before');
    await eventually(() => count(events, 'childrenChanged') === 1, 3000, 'childrenChanged before the kill');

    const attached = session.serverAddress;
    assert.ok(attached, 'attached to a member');
    const victim = zk.member(Number(attached.split(':').pop()));
    await victim.kill();
    await eventually(() => session.state === 'connected' && session.serverAddress !== attached, 20000, 'attached elsewhere');
    assert.notEqual(session.serverAddress, victim.address);
    assert.equal(session.sessionId, sessionId);
    assert.deepEqual((await session.getChildren('/ens')).children, ['before']);

    await eventually(async () => {
      try { await other.create('/ens/after'); return true; } catch { return false; }
    }, 20000, 'the other client writes again');
    await eventually(() => count(events, 'childrenChanged') === 2, 5000, 'childrenChanged after the kill');
    await other.setData('/ens', 'x');
    await eventually(() => count(events, 'dataChanged') === 1, 5000, 'dataChanged after the kill');
    assert.deepEqual((await session.getChildren('/ens')).children.sort(), ['after', 'before']);
  });
});

// One standalone server for the two suites below: neither stops, freezes or restarts it (sessions are expired by
// a twin client, not by the server going away).
let shared: ZkCluster | undefined;
const sharedServer = async (): Promise<ZkCluster> => (shared ??= await startStandalone());
after(async () => { await shared?.stop(); });

describe('session expiry', () => {
  let zk: ZkCluster;
  before(async () => { zk = await sharedServer(); });

  /**
   * Expires `session` (connected through `proxy`) on purpose, deterministically: the proxy cuts and refuses the
   * session's connection, so it cannot fight back; a twin client with the same id and password connects straight
   * to the server and closes the session; then the proxy lets the session in again, and the server says expired.
   */
  async function expire(session: ZkSession, proxy: Awaited<ReturnType<typeof startProxy>>, letBackIn = true): Promise<void> {
    await proxy.refuse(true);
    proxy.cutAll();
    await closeSessionAsTwin(zk.connectString, session.client.getSessionId(), session.client.getSessionPassword());
    if (letBackIn) await proxy.refuse(false);
  }

  test('state expired and stays so; every request fails with sessionExpired at once', async () => {
    const proxy = await startProxy(zk.members[0].clientPort);
    // A request timeout no test outlasts: a request that waited for it would fail with clientTimeout, not sessionExpired.
    const session = new ZkSession({ connectString: `127.0.0.1:${proxy.port}`, sessionTimeoutMs: 8000, requestTimeoutMs: 600_000 });
    await session.open();
    const states: SessionState[] = [];
    session.on('state', (s: SessionState) => states.push(s));
    await session.watches.watch('/', () => undefined);
    await expire(session, proxy);
    await eventually(() => session.state === 'expired', 8000, 'expired').catch((error: Error) => {
      throw new Error(`${error.message}; states: ${states.join(' → ')}`);
    });
    await sleep(500);
    assert.equal(session.state, 'expired');
    assert.equal(states.at(-1), 'expired', states.join(' → '));
    assert.ok(!states.includes('lost'), states.join(' → '));
    assert.equal(session.isLive, false);

    const results = await Promise.allSettled([
      session.getChildren('/'),
      session.exists('/'),
      session.getData('/'),
      session.watches.watch('/other', () => undefined),
      session.libraryCall('create', '/x', (cb) => session.client.create('/x', cb)),
    ]);
    for (const r of results) {
      assert.equal(r.status, 'rejected');
      assert.equal((r.reason as { code?: string }).code, 'sessionExpired', String(r.reason));
    }
    session.close();
    assert.equal(session.state, 'closed');
    await proxy.close();
  });

  test('requests queued while disconnected fail with sessionExpired once the reconnect finds the expiry', async () => {
    const proxy = await startProxy(zk.members[0].clientPort);
    const session = new ZkSession({ connectString: `127.0.0.1:${proxy.port}`, sessionTimeoutMs: 8000, requestTimeoutMs: 600_000 });
    try {
      await session.open();
      await proxy.refuse(true);
      proxy.cutAll();
      await eventually(() => session.state === 'suspended', 5000, 'suspended');
      const queued = [session.getChildren('/'), session.exists('/zookeeper'), session.watches.watch('/q', () => undefined)];
      await expire(session, proxy, false);
      await sleep(200);
      await proxy.refuse(false);
      // Settled by the reconnect's answer: the request timeout (10 minutes) would have said clientTimeout.
      const results = await Promise.allSettled(queued);
      assert.equal(session.state, 'expired');
      for (const r of results) {
        assert.equal(r.status, 'rejected');
        assert.equal((r.reason as { code?: string }).code, 'sessionExpired', String(r.reason));
      }
    } finally {
      session.close();
      await proxy.close();
    }
  });
});

describe('after close() nothing keeps the process alive', () => {
  let zk: ZkCluster;
  before(async () => { zk = await sharedServer(); });

  /**
   * Runs `body` (async JS using `session`, `ZkSession`, `startProxy`, `port`) in a child process, which must exit by
   * itself within `deadlineMs` of its `closed` line. The sessions in it ask for timeouts far longer than that: a
   * timer or socket of theirs that outlived close() would hold the child past the deadline, whatever the machine's
   * speed (the server caps a session's timeout at 40 s: half of it is the deadline there).
   */
  function runChild(body: string, deadlineMs: number): Promise<{ output: string }> {
    const out = path.resolve(__dirname, '..', '..');
    const script = `
      const { ZkSession } = require(${JSON.stringify(path.join(out, 'src/zk/session/session.js'))});
      const { startProxy } = require(${JSON.stringify(path.join(out, 'test/support/fakes/tcpProxy.js'))});
      const port = ${zk.members[0].clientPort};
      (async () => { ${body}; console.log('closed'); })().catch((e) => { console.log('error ' + e.stack); process.exitCode = 1; });
    `;
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
      let output = '';
      let closedAt = 0;
      const killer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`child still alive after 120 s; output: ${output}`)); }, 120_000);
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (!closedAt && output.includes('closed')) {
          closedAt = Date.now();
          setTimeout(() => { if (child.exitCode === null) { child.kill('SIGKILL'); reject(new Error(`child did not exit within ${deadlineMs} ms of close(); output: ${output}`)); } }, deadlineMs);
        }
      });
      child.on('exit', (code) => {
        clearTimeout(killer);
        if (code !== 0 || !closedAt) reject(new Error(`child exited with ${code}; output: ${output}`));
        else resolve({ output });
      });
    });
  }

  test('connected, with a watch and requests in flight', async () => {
    await runChild(`
      const session = new ZkSession({ connectString: '127.0.0.1:' + port, sessionTimeoutMs: 600000, requestTimeoutMs: 600000 });
      await session.open();
      await session.watches.watch('/', () => undefined);
      const pending = [session.getChildren('/'), session.exists('/zookeeper')].map((p) => p.catch(() => undefined));
      session.close();
      await Promise.all(pending);
    `, 20_000);
  });

  test('suspended (server unreachable), with a request queued', async () => {
    await runChild(`
      const proxy = await startProxy(port);
      const session = new ZkSession({ connectString: '127.0.0.1:' + proxy.port, sessionTimeoutMs: 600000, requestTimeoutMs: 600000 });
      await session.open();
      await session.watches.watch('/', () => undefined);
      await proxy.refuse(true);
      proxy.cutAll();
      while (session.state !== 'suspended') await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 300));
      const queued = session.getChildren('/');
      session.close();
      const outcome = await queued.then(() => 'resolved', (e) => e.code);
      if (outcome === 'clientTimeout' || outcome === 'resolved') throw new Error('queued request: ' + outcome);
      await proxy.close();
    `, 20_000);
  });

  test('while connecting to a port nobody listens on', async () => {
    const nobody = await freePort();
    await runChild(`
      const session = new ZkSession({ connectString: '127.0.0.1:${nobody}', sessionTimeoutMs: 600000 });
      const opening = session.open().catch((e) => e.reason);
      await new Promise((r) => setTimeout(r, 150));
      session.close();
      await opening;
    `, 60_000);
  });

  test('while connecting to a silent service (open() is settled by close())', async () => {
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => { sockets.add(socket); socket.on('error', () => undefined); });
    const silentPort = await listen(silent);
    try {
      await runChild(`
        const session = new ZkSession({ connectString: '127.0.0.1:${silentPort}', sessionTimeoutMs: 600000 });
        const opening = session.open().then(() => 'connected', (e) => e.reason);
        await new Promise((r) => setTimeout(r, 800));
        session.close();
        const outcome = await Promise.race([opening, new Promise((r) => setTimeout(() => r('still pending'), 1000))]);
        if (outcome !== 'cancelled') throw new Error('open() after close(): ' + outcome);
      `, 60_000);
    } finally {
      for (const s of sockets) s.destroy();
      silent.close();
    }
  });
});
