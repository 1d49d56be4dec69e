// Every reader of what a server sends is bounded: a peer that sends an impossible frame length, garbage, or an answer
// that never ends costs one clear error (a dropped connection with its reason, a rejected call), never a crash, an
// allocation of gigabytes or a wait without end. The peers are real sockets on loopback (test/support/fakes/fakePeers).
import { after, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { ConnectFailure, SessionState, ZkSession } from '../../src/zk/session/session';
import { DEFAULT_MAX_FRAME_BYTES } from '../../src/zk/protocol/frameReader';
import { MAX_ANSWER_BYTES } from '../../src/zk/servers/fourLetterWords';
import { AdminUnavailableError, askAdmin, askWord } from '../../src/zk/servers/serverCommands';
import { probeServer } from '../../src/zk/probes/serverProbe';
import { connectResponse, FakeServer, flood, frame, PeerConnection, startFakeZooKeeper, startHttpPeer, startRawPeer } from '../support/fakes/fakePeers';
import { eventually } from '../support/clients/zkClient';

const peers: FakeServer[] = [];
const sessions: ZkSession[] = [];
after(async () => {
  for (const s of sessions) s.close();
  for (const p of peers) await p.close();
});

async function peer(started: Promise<FakeServer>): Promise<FakeServer> {
  const p = await started;
  peers.push(p);
  return p;
}

function session(port: number): { session: ZkSession; states: SessionState[]; drops: string[] } {
  const s = new ZkSession({ connectString: `127.0.0.1:${port}`, sessionTimeoutMs: 4000, requestTimeoutMs: 2000 });
  sessions.push(s);
  const states: SessionState[] = [];
  const drops: string[] = [];
  s.on('state', (state: SessionState) => states.push(state));
  s.on('dropped', (reason: string) => drops.push(reason));
  return { session: s, states, drops };
}

/**
 * A peer that answers the handshake, then sends `after` on the first connection only (later connections behave:
 * handshake and pings), so the test also sees the session come back. Resolves `closed` with the bytes the peer got
 * rid of when the client closed its first connection.
 */
async function misbehavingAfterHandshake(after: (c: PeerConnection) => void | Promise<unknown>) {
  let closedResolve!: () => void;
  const closed = new Promise<void>((resolve) => { closedResolve = resolve; });
  const p = await peer(startFakeZooKeeper((c) => {
    c.socket.write(connectResponse());
    if (c.index === 1) {
      c.socket.on('close', closedResolve);
      setTimeout(() => void after(c), 50);
    }
  }));
  return { port: p.port, closed, peer: p };
}

describe('reply frames from a broken peer drop the connection with one line, and the session carries on', () => {
  test('a negative frame length', { timeout: 30000 }, async () => {
    const { port, closed } = await misbehavingAfterHandshake((c) => { c.socket.write(Buffer.from([0xff, 0xff, 0xff, 0xfe, 1, 2, 3])); });
    const { session: s, states, drops } = session(port);
    await s.open();
    await eventually(() => drops.length > 0 && s.state === 'connected', 10000, `dropped and connected again (${states.join(' → ')})`);
    await closed;
    assert.deepEqual(drops, [`connection to 127.0.0.1:${port} dropped: invalid frame length -2`]);
    assert.equal(s.lastDrop, drops[0]);
    assert.deepEqual(states, ['connected', 'suspended', 'connected']);
  });

  test('a 2 GB frame length: refused at its first 4 bytes, nothing buffered for it', { timeout: 30000 }, async () => {
    let sent = 0;
    const { port, closed } = await misbehavingAfterHandshake(async (c) => {
      c.socket.write(Buffer.from([0x7f, 0xff, 0xff, 0xff]));
      // Then as much as the client will take (at most 256 MiB): a reader that waits for the frame buffers it all.
      sent = await flood(c.socket, 256 * 1024 * 1024);
    });
    const { session: s, states, drops } = session(port);
    await s.open();
    await eventually(() => drops.length > 0 && s.state === 'connected', 10000, `dropped and connected again (${states.join(' → ')})`);
    await closed;
    assert.deepEqual(drops, [`connection to 127.0.0.1:${port} dropped: frame length 2147483647 exceeds the limit of ${DEFAULT_MAX_FRAME_BYTES} bytes`]);
    assert.ok(sent < 256 * 1024 * 1024, `the client closed the connection before the peer had sent everything (${sent} bytes)`);
    assert.deepEqual(states, ['connected', 'suspended', 'connected']);
  });

  test('a reply shorter than a reply header (garbage)', { timeout: 30000 }, async () => {
    const { port, closed } = await misbehavingAfterHandshake((c) => { c.socket.write(frame(Buffer.from('abc'))); });
    const { session: s, states, drops } = session(port);
    await s.open();
    await eventually(() => drops.length > 0 && s.state === 'connected', 10000, `dropped and connected again (${states.join(' → ')})`);
    await closed;
    assert.deepEqual(drops, [`connection to 127.0.0.1:${port} dropped: reply of 3 bytes is shorter than a reply header`]);
  });

  test('a handshake answer that is garbage: open() fails with the diagnosis (not ZooKeeper), no crash', { timeout: 30000 }, async () => {
    const p = await peer(startFakeZooKeeper((c) => c.socket.write(frame(Buffer.from('hello')))));
    const { session: s, drops } = session(p.port);
    const failure = await s.open().then(() => undefined, (error: unknown) => error);
    assert.ok(failure instanceof ConnectFailure, String(failure));
    assert.equal(failure.reason, 'unreachable');
    assert.deepEqual(failure.probes.map((r) => r.outcome), ['notZooKeeper']);
    assert.ok(drops.length >= 1);
    assert.equal(drops[0], `connection to 127.0.0.1:${p.port} dropped: handshake answer of 5 bytes is too short`);
  });

  test('a handshake answer whose password claims 1 GiB: nothing allocated for it, the connection dropped', { timeout: 30000 }, async () => {
    const p = await peer(startFakeZooKeeper((c) => c.socket.write(connectResponse({ passwordLength: 0x40000000 }))));
    const { session: s, drops } = session(p.port);
    const before = process.memoryUsage().arrayBuffers;
    const failure = await s.open().then(() => undefined, (error: unknown) => error);
    assert.ok(failure instanceof ConnectFailure, String(failure));
    assert.equal(drops[0], `connection to 127.0.0.1:${p.port} dropped: handshake answer has a password length of ${0x40000000}`);
    assert.ok(process.memoryUsage().arrayBuffers - before < 0x40000000, 'no buffer of the claimed size');
  });
});

describe('four-letter-word and AdminServer answers are bounded in size and in time', () => {
  /** A peer that answers every word with `limit` bytes (then stays open and silent). */
  const floodingPeer = (limit: number) => peer(startRawPeer((socket) => socket.once('data', () => void flood(socket, limit))));
  /** A peer that answers with one byte every 50 ms, forever. */
  const tricklingPeer = () => peer(startRawPeer((socket) => socket.once('data', () => {
    const timer = setInterval(() => socket.write('x'), 50);
    socket.on('close', () => clearInterval(timer));
  })));

  test('an endless answer stops at the size limit with a clear error (askWord, probe)', { timeout: 60000 }, async () => {
    const p = await floodingPeer(2 * MAX_ANSWER_BYTES);
    await assert.rejects(askWord('127.0.0.1', p.port, 'mntr', { timeoutMs: 20000 }),
      new RegExp(`^Error: 127\\.0\\.0\\.1:${p.port} answered 'mntr' with more than ${MAX_ANSWER_BYTES} bytes; stopped reading$`));
    const probe = await probeServer('127.0.0.1', p.port, 20000);
    assert.equal(probe.outcome, 'notZooKeeper');
    assert.match(probe.detail ?? '', /answered 'srvr' with more than \d+ bytes/);
  });

  test('an answer that trickles in forever ends at the deadline, however often bytes come', { timeout: 60000 }, async () => {
    const p = await tricklingPeer();
    await assert.rejects(askWord('127.0.0.1', p.port, 'srvr', { timeoutMs: 1000 }),
      new RegExp(`^Error: 127\\.0\\.0\\.1:${p.port} did not finish answering 'srvr' within 1000 ms \\(\\d+ bytes so far\\)$`));
    const probe = await probeServer('127.0.0.1', p.port, 1000);
    assert.equal(probe.outcome, 'notZooKeeper');
  });

  test('an endless AdminServer answer stops at the size limit; a huge Content-Length is refused at once', { timeout: 60000 }, async () => {
    const endless = await peer(startHttpPeer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      void flood(res, 2 * MAX_ANSWER_BYTES);
    }));
    await assert.rejects(askAdmin('127.0.0.1', endless.port, 'monitor', { timeoutMs: 20000 }), (error: unknown) => {
      assert.ok(error instanceof AdminUnavailableError, String(error));
      assert.equal(error.message, `AdminServer 127.0.0.1:${endless.port}: answer to 'monitor' larger than ${MAX_ANSWER_BYTES} bytes; stopped reading`);
      return true;
    });
    const huge = await peer(startHttpPeer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(8 * 1024 ** 3) });
      res.flushHeaders();
    }));
    await assert.rejects(askAdmin('127.0.0.1', huge.port, 'monitor', { timeoutMs: 20000 }), /answer to 'monitor' larger than \d+ bytes; stopped reading/);
  });
});
