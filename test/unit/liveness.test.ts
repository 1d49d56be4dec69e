// The connection's liveness check without a ZooKeeper server: a loopback peer that answers pings keeps the session
// connected however long it is idle; a peer that goes silent with its socket open is dropped (suspended) after
// pings went unanswered. The same against a real, SIGSTOPped ensemble member: test/integration/hungServer.test.ts.
// The Liveness check itself on mocked timers: when it pings, when it drops, and that it stops.
import { after, afterEach, beforeEach, describe, mock, test } from 'node:test';
import * as assert from 'node:assert/strict';
import type * as net from 'node:net';
import { SessionState, ZkSession } from '../../src/zk/session/session';
import { Liveness, LivenessLink, livenessTimings } from '../../src/zk/protocol/liveness';
import { connectResponse, FakeServer, startFakeZooKeeper } from '../support/fakes/fakePeers';
import { eventually } from '../support/clients/zkClient';

const peers: FakeServer[] = [];
const sessions: ZkSession[] = [];
after(async () => {
  for (const s of sessions) s.close();
  for (const p of peers) await p.close();
});

/** Counts the pings a peer's socket receives (12-byte frames with opcode 11) without answering anything. */
function countPings(socket: net.Socket): { count: number } {
  const counter = { count: 0 };
  socket.on('data', (chunk: Buffer) => {
    for (let at = 0; at + 12 <= chunk.length; at += 4 + chunk.readInt32BE(at)) {
      if (chunk.readInt32BE(at) === 8 && chunk.readInt32BE(at + 8) === 11) counter.count++;
    }
  });
  return counter;
}

describe('connection liveness', () => {
  test('timings: a drop after two thirds of the session timeout, and pings leave a margin before the ensemble can expire it', () => {
    for (let t = 4000; t <= 40000; t += 500) {
      const { readTimeoutMs, pingIntervalMs } = livenessTimings(t);
      assert.equal(readTimeoutMs, Math.floor((2 * t) / 3));
      assert.ok(pingIntervalMs > 0 && pingIntervalMs <= t / 3, `ping every ${pingIntervalMs} ms for ${t}`);
      // The leader's last touch may be one ping older than our last answer: both together stay under the timeout.
      assert.ok(readTimeoutMs + pingIntervalMs <= t - Math.min(1000, t / 6) + 1, `margin for ${t}`);
    }
  });

  test('a peer that answers pings keeps an idle session connected; no drop', { timeout: 60000 }, async () => {
    let pings = { count: 0 };
    const p = await startFakeZooKeeper((c) => {
      c.socket.write(connectResponse({ timeOutMs: 4000 }));
      pings = countPings(c.socket);
    });
    peers.push(p);
    const s = new ZkSession({ connectString: `127.0.0.1:${p.port}`, sessionTimeoutMs: 4000 });
    sessions.push(s);
    const states: SessionState[] = [];
    s.on('state', (state: SessionState) => states.push(state));
    await s.open();
    // Twelve pings span at least two session timeouts, whatever the machine's speed.
    await eventually(() => pings.count >= 12, 45000, `12 pings (got ${pings.count})`);
    assert.deepEqual(states, ['connected']);
    assert.equal(s.lastDrop, undefined);
    assert.equal(p.connections, 1);
  });

  test('a peer that stops answering (socket open) is dropped after unanswered pings: suspended, with the reason', { timeout: 60000 }, async () => {
    let pings: { count: number } | undefined;
    const p = await startFakeZooKeeper((c) => {
      c.socket.write(connectResponse({ timeOutMs: 4000 }));
      if (c.index === 1) {
        // From now on this connection answers nothing, though its socket stays open (as a hung server's does).
        c.socket.removeAllListeners('data');
        pings = countPings(c.socket);
      }
    });
    peers.push(p);
    const s = new ZkSession({ connectString: `127.0.0.1:${p.port}`, sessionTimeoutMs: 4000 });
    sessions.push(s);
    const states: SessionState[] = [];
    s.on('state', (state: SessionState) => states.push(state));
    await s.open();
    await eventually(() => states.includes('suspended'), 30000, `suspended (${states.join(' → ')})`);
    assert.match(s.lastDrop ?? '', new RegExp(`^connection to 127\\.0\\.0\\.1:${p.port} dropped: no reply for \\d+ ms \\(allowed: 2666 ms, two thirds of the 4000 ms session timeout\\)$`));
    assert.ok((pings?.count ?? 0) >= 1, 'pings were sent before the drop');
    // It tries again at once, and the peer's next connection behaves.
    await eventually(() => s.state === 'connected' && p.connections >= 2, 30000, 'connected again');
  });
});

/** A connection as the check sees it, recording the pings and drops it asks for (with the mocked clock's time). */
class FakeLink implements LivenessLink {
  socket: object | undefined = {};
  connected = true;
  readonly pings: number[] = [];
  readonly drops: { at: number; reason: string }[] = [];
  constructor(readonly sessionTimeoutMs: number) {}
  ping(): void { this.pings.push(Date.now()); }
  drop(reason: string): void { this.drops.push({ at: Date.now(), reason }); }
}

/** Advances the mocked clock one millisecond at a time (timers run as their time comes). */
function advance(ms: number, each: () => void = () => undefined): void {
  for (let i = 0; i < ms; i++) {
    mock.timers.tick(1);
    each();
  }
}

/**
 * Lets the check's after-I/O look run: it is a real setImmediate (node 20's mocked one runs again and again when
 * set from a mocked timer), queued before this one.
 */
function afterIo(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

describe('liveness check on mocked timers', () => {
  // A 3000 ms session: a ping every 500 ms (a third less a sixth), a drop after 2000 ms of silence (two thirds).
  const sessionTimeoutMs = 3000;
  let link: FakeLink;
  let liveness: Liveness;
  beforeEach(() => {
    mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 0 });
    link = new FakeLink(sessionTimeoutMs);
    liveness = new Liveness(link, () => Date.now());
    liveness.heard();
  });
  afterEach(() => {
    liveness.stop();
    mock.timers.reset();
  });

  test('pings every ping interval from the start, while frames arrive', () => {
    liveness.watchConnected();
    // A frame every 100 ms: the peer is busy, yet pings keep their pace (they do not wait for silence).
    advance(2600, () => { if (Date.now() % 100 === 0) liveness.heard(); });
    assert.deepEqual(link.pings, [500, 1000, 1500, 2000, 2500]);
    assert.deepEqual(link.drops, []);
  });

  test('nothing happens before the socket carries a session', () => {
    link.connected = false;
    liveness.watchConnected();
    advance(5000);
    assert.deepEqual(link.pings, []);
    assert.deepEqual(link.drops, []);
  });

  test('silence for the read timeout drops the connection, not a millisecond before', async () => {
    liveness.watchConnected();
    advance(1999);
    await afterIo();
    assert.deepEqual(link.drops, []);
    assert.deepEqual(link.pings, [500, 1000, 1500], 'pings went out meanwhile');
    advance(1);
    await afterIo();
    assert.deepEqual(link.drops, [{ at: 2000, reason: 'no reply for 2000 ms (allowed: 2000 ms, two thirds of the 3000 ms session timeout)' }]);
  });

  test('frames arriving keep it connected however long; the silence is counted from the last one', async () => {
    liveness.watchConnected();
    advance(10000, () => { if (Date.now() % 1500 === 0) liveness.heard(); });
    await afterIo();
    assert.equal(link.drops.length, 0, 'a frame every 1500 ms is never 2000 ms of silence');
    // The last frame came at 9000: silence from there.
    advance(999);
    await afterIo();
    assert.equal(link.drops.length, 0);
    advance(1);
    await afterIo();
    assert.deepEqual(link.drops.map((d) => d.at), [11000]);
  });

  test('a frame read in the same turn as the timeout (before the after-I/O look) keeps the connection', async () => {
    liveness.watchConnected();
    advance(2000);
    liveness.heard();
    await afterIo();
    assert.equal(link.drops.length, 0);
    advance(1999);
    await afterIo();
    assert.equal(link.drops.length, 0);
    advance(1);
    await afterIo();
    assert.deepEqual(link.drops.map((d) => d.at), [4000]);
  });

  test('stopped (the socket closed), it neither pings nor drops', async () => {
    liveness.watchConnected();
    advance(700);
    liveness.stop();
    advance(10000);
    await afterIo();
    assert.deepEqual(link.pings, [500]);
    assert.deepEqual(link.drops, []);
  });

  test('it stops by itself when the session is gone from its socket, or another socket took its place', async () => {
    liveness.watchConnected();
    advance(600);
    link.connected = false;
    advance(5000);
    assert.deepEqual(link.pings, [500]);
    link.connected = true;
    link.socket = {};
    advance(5000);
    await afterIo();
    assert.deepEqual(link.pings, [500], 'the new socket is not watched until it is handed over');
    assert.deepEqual(link.drops, []);
  });

  test('a new connected socket is watched afresh: pings from its start', () => {
    liveness.watchConnected();
    advance(700);
    link.socket = {};
    liveness.heard();
    liveness.watchConnected();
    advance(1100);
    assert.deepEqual(link.pings, [500, 1200, 1700]);
  });
});
