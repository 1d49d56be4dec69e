// The connection's liveness check without a ZooKeeper server: a loopback peer that answers pings keeps the session
// connected however long it is idle; a peer that goes silent with its socket open is dropped (suspended) after
// pings went unanswered. The same against a real, SIGSTOPped ensemble member: test/integration/hungServer.test.ts.
import { after, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import type * as net from 'node:net';
import { SessionState, ZkSession } from '../../src/zk/session';
import { livenessTimings } from '../../src/zk/protocol/rawChannel';
import { connectResponse, FakeServer, startFakeZooKeeper } from '../support/fakePeers';
import { eventually } from '../support/zkClient';

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
