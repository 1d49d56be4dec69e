// Faults on the secured paths are normal and everything a server says is untrusted: a TLS port that hangs before its
// ServerHello, a peer that completes a real TLS handshake and then sends garbage, a peer that grants a session and
// then answers the SASL exchange with garbage or not at all. Each costs one clear line (no stack trace, no
// password), a session that gives up or retries as designed within its deadline, and no crash; close() leaves
// nothing that keeps the process alive. The peers are real sockets on loopback (test/support/fakes/securedPeers).
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { ConnectFailure, SessionOptions, SessionState, ZkSession } from '../../src/zk/session/session';
import { DEFAULT_MAX_FRAME_BYTES } from '../../src/zk/protocol/frameReader';
import { OpCode } from '../../src/zk/protocol/opcodes';
import { handshakeTimeoutLine } from '../../src/zk/security/tlsFailure';
import type { FakeServer } from '../support/fakes/fakePeers';
import { RAW_HIDDEN } from '../support/fixtures/hostileFixture';
import {
  grantedSession, replyFrame, requestHeader, saslReply, ScriptedConnection, ScriptedPeer, startScriptedPeer, startSilentPeer,
  temporaryServerCertificate,
} from '../support/fakes/securedPeers';

const PASSWORD = 'hunter2-very-secret';

const peers: FakeServer[] = [];
const sessions: ZkSession[] = [];
let certificate: ReturnType<typeof temporaryServerCertificate>;
before(() => { certificate = temporaryServerCertificate(); });
after(async () => {
  for (const s of sessions) s.close();
  for (const p of peers) await p.close();
  certificate?.remove();
});

async function peer<T extends FakeServer>(started: Promise<T>): Promise<T> {
  const p = await started;
  peers.push(p);
  return p;
}

interface Watched {
  session: ZkSession;
  states: SessionState[];
  drops: string[];
  problems: string[];
}

function session(options: Omit<SessionOptions, 'requestTimeoutMs'>): Watched {
  const s = new ZkSession({ requestTimeoutMs: 2000, ...options });
  sessions.push(s);
  const watched: Watched = { session: s, states: [], drops: [], problems: [] };
  s.on('state', (state: SessionState) => watched.states.push(state));
  s.on('dropped', (reason: string) => watched.drops.push(reason));
  s.on('securityProblem', (line: string) => watched.problems.push(line));
  return watched;
}

/** open()'s failure; the test fails if open() succeeds. */
async function openFails(s: ZkSession): Promise<ConnectFailure> {
  const failure = await s.open().then(() => undefined, (error: unknown) => error);
  assert.ok(failure instanceof ConnectFailure, `open() failed with a ConnectFailure, not ${String(failure)}`);
  return failure;
}

/** One line a user can read: no line break, no stack trace, no hidden characters, no password, not a wall of text. */
function assertOneCleanLine(line: string | undefined, what: string): void {
  assert.ok(line, `${what}: a line`);
  assert.ok(!line.includes('\n') && !line.includes('\r'), `${what} is one line: ${JSON.stringify(line)}`);
  assert.ok(!/\n\s+at |\bat .*\.js:\d+/.test(line), `${what} has no stack trace: ${line}`);
  assert.ok(!line.includes(PASSWORD), `${what} does not contain the password`);
  assert.ok(!RAW_HIDDEN.test(line), `${what} has no raw hidden characters: ${JSON.stringify(line)}`);
  assert.ok(line.length < 400, `${what} is short (${line.length} characters): ${line.slice(0, 200)}…`);
}

describe('a TLS port that accepts TCP and never answers the ClientHello', () => {
  test('the handshake timeout fires, is said in one line naming the server and the timeout, and the session retries until open() gives up', { timeout: 60000 }, async () => {
    const silent = await peer(startSilentPeer());
    const server = `127.0.0.1:${silent.port}`;
    const w = session({ connectString: server, sessionTimeoutMs: 8000, tls: { caFile: certificate.caCrt, handshakeTimeoutMs: 1000 } });
    const failure = await openFails(w.session);
    const expected = handshakeTimeoutLine(server, 1000).line;
    assert.equal(expected, `TLS with ${server} failed: no handshake within 1000 ms`);
    assert.equal(failure.reason, 'timedOut', failure.message);
    assert.ok(failure.message.includes(expected), failure.message);
    assertOneCleanLine(failure.message, 'the failure');
    // A hung server may come back: the timeout is not final, the session tried again until its deadline.
    assert.ok(w.problems.length >= 2, `retried after the handshake timeout: ${JSON.stringify(w.problems)}`);
    assert.deepEqual([...new Set(w.problems)], [expected]);
    assert.equal(w.session.lastSecurityProblem, expected);
    assert.equal(w.session.state, 'closed');
    assert.deepEqual(w.session.security, {});
  });

  test('a handshake timeout longer than the session allows is shortened, so the failure still says what happened', { timeout: 60000 }, async () => {
    const silent = await peer(startSilentPeer());
    const server = `127.0.0.1:${silent.port}`;
    // The default handshake timeout (10 s) is longer than this session's whole deadline.
    const w = session({ connectString: server, sessionTimeoutMs: 6000, tls: { caFile: certificate.caCrt } });
    const failure = await openFails(w.session);
    assert.equal(failure.reason, 'timedOut', failure.message);
    const said = /TLS with 127\.0\.0\.1:\d+ failed: no handshake within (\d+) ms/.exec(failure.message);
    assert.ok(said, `the failure names the handshake timeout: ${failure.message}`);
    assert.ok(Number(said[1]) < 6000, `within the session's deadline: ${said[0]}`);
    assertOneCleanLine(failure.message, 'the failure');
  });

  test('a server that hangs one handshake and then serves: the timed-out attempt leaves no timer that later kills the good connection', { timeout: 60000 }, async () => {
    const p = await peer(startScriptedPeer({
      tls: { key: certificate.key, cert: certificate.cert },
      silentFirst: 1,
      onFrame: (conn, f, n) => {
        if (n === 1) conn.socket.write(grantedSession(6000));
        else if (requestHeader(f).type === OpCode.ping) conn.socket.write(replyFrame(-2, 0));
      },
    }));
    const server = `127.0.0.1:${p.port}`;
    // The library's connect timer of the first attempt would fire 6 s (the session timeout, one server) after it.
    const pastConnectTimeout = new Promise((resolve) => setTimeout(resolve, 9000));
    const w = session({ connectString: server, sessionTimeoutMs: 6000, tls: { caFile: certificate.caCrt, handshakeTimeoutMs: 1000 } });
    await w.session.open();
    // The first attempt timed out (a later one may too on a machine slow enough: each says the same).
    assert.ok(w.problems.length >= 1, 'the first attempt timed out');
    assert.deepEqual([...new Set(w.problems)], [handshakeTimeoutLine(server, 1000).line]);
    assert.ok(w.session.security.tls, 'connected over TLS');
    await pastConnectTimeout;
    assert.deepEqual(w.states, ['connected'], `the good connection stayed: ${w.states.join(' → ')}; ${w.drops.join('; ')}`);
    assert.equal(p.sessions.length, 1, 'one connection after the hung one');
    await w.session.whoAmI().catch(() => undefined);
    w.session.close();
  });

  test('close() after a handshake timeout leaves nothing that keeps the process alive', { timeout: 90000 }, async () => {
    const silent = await peer(startSilentPeer());
    // In a child process: it must exit by itself once the session is closed. The session timeout (and with it the
    // library's connect timer) is two minutes; the child gets 45 s in all.
    const session = path.resolve(__dirname, '../../src/zk/session/session.js');
    const script = `
      const { ZkSession } = require(${JSON.stringify(session)});
      const s = new ZkSession({ connectString: '127.0.0.1:${silent.port}', sessionTimeoutMs: 120000,
        tls: { caFile: ${JSON.stringify(certificate.caCrt)}, handshakeTimeoutMs: 1000 } });
      s.once('securityProblem', (line) => { console.log('problem ' + line); s.close(); });
      s.open().then(() => console.log('connected?!'), (e) => console.log('open ' + e.message));
    `;
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { out += d.toString(); });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const limit = new Promise<'alive'>((resolve) => setTimeout(() => resolve('alive'), 45000).unref());
    const outcome = await Promise.race([exited, limit]);
    if (outcome === 'alive') child.kill('SIGKILL');
    assert.notEqual(outcome, 'alive', `the child still ran 45 s after close(); it said: ${out}`);
    assert.equal(outcome, 0, out);
    assert.match(out, new RegExp(`^problem TLS with 127\\.0\\.0\\.1:${silent.port} failed: no handshake within 1000 ms$`, 'm'));
    assert.match(out, /^open cannot connect: cancelled/m);
    assert.equal(silent.connections >= 1, true);
  });
});

describe('a TLS peer that completes a real handshake, then answers the ConnectRequest with garbage', () => {
  const cases: { name: string; answer: Buffer; reason: string }[] = [
    { name: 'a frame too short to be a ConnectResponse', answer: Buffer.from([0, 0, 0, 5, 0x68, 0x65, 0x6c, 0x6c, 0x6f]), reason: 'handshake answer of 5 bytes is too short' },
    { name: 'an impossible frame length (2 GB)', answer: Buffer.from([0x7f, 0xff, 0xff, 0xff, 1, 2, 3]), reason: `frame length 2147483647 exceeds the limit of ${DEFAULT_MAX_FRAME_BYTES} bytes` },
    { name: 'a negative frame length', answer: Buffer.from([0xff, 0xff, 0xff, 0xfe]), reason: 'invalid frame length -2' },
    { name: 'an HTTP answer', answer: Buffer.from('HTTP/1.1 400 Bad Request\r\n\r\n'), reason: `frame length ${Buffer.from('HTTP').readInt32BE(0)} exceeds the limit of ${DEFAULT_MAX_FRAME_BYTES} bytes` },
  ];
  for (const c of cases) {
    test(`${c.name}: dropped with the reason, no crash, open() fails within its deadline`, { timeout: 60000 }, async () => {
      const p = await peer(startScriptedPeer({ tls: { key: certificate.key, cert: certificate.cert }, onFrame: (conn, _f, n) => { if (n === 1) conn.socket.write(c.answer); } }));
      const server = `127.0.0.1:${p.port}`;
      const w = session({ connectString: server, sessionTimeoutMs: 5000, tls: { caFile: certificate.caCrt } });
      const failure = await openFails(w.session);
      assert.equal(failure.reason, 'timedOut', failure.message);
      assertOneCleanLine(failure.message, 'the failure');
      // The handshake was real: TLS worked, what came over it did not.
      assert.ok(p.sessions.length >= 1, 'the peer got a ConnectRequest over TLS');
      assert.deepEqual(w.problems, [], 'no TLS problem: the handshake succeeded');
      assert.ok(w.drops.length >= 1, 'dropped');
      assert.deepEqual([...new Set(w.drops)], [`connection to ${server} dropped: ${c.reason}`]);
      for (const drop of w.drops) assertOneCleanLine(drop, 'the drop');
      assert.equal(w.session.lastDrop, w.drops[w.drops.length - 1]);
      assert.ok(!w.states.includes('connected'), w.states.join(' → '));
    });
  }
});

/**
 * A plain peer that grants a session to a session configured for SASL DIGEST-MD5 and then answers its SASL
 * requests with `answer` (the request's xid and its number in the exchange, 1 for the first); undefined: no answer.
 */
async function saslPeer(answer: (xid: number, step: number, conn: ScriptedConnection) => Buffer | undefined): Promise<ScriptedPeer> {
  return peer(startScriptedPeer({
    onFrame: (conn, f, n) => {
      if (n === 1) return void conn.socket.write(grantedSession());
      const { xid, type } = requestHeader(f);
      if (type !== OpCode.sasl) return;
      const reply = answer(xid, n - 1, conn);
      if (reply) conn.socket.write(reply);
    },
  }));
}

function saslSession(port: number, sessionTimeoutMs = 6000): Watched {
  return session({ connectString: `127.0.0.1:${port}`, sessionTimeoutMs, sasl: { mechanism: 'DIGEST-MD5', username: 'alice', password: PASSWORD } });
}

describe('a peer that grants a session and answers the SASL exchange with garbage: one line, authFailed, no crash', () => {
  const hostileQop = `${'q'.repeat(100000)}\u202E\u0007\u001b[31m[x](command:workbench.action.terminal.new)`;
  const cases: { name: string; answer: (xid: number, step: number) => Buffer; line: RegExp }[] = [
    { name: 'a reply too short for a reply header', answer: () => Buffer.from([0, 0, 0, 3, 0x61, 0x62, 0x63]), line: /^SASL failed: SASL: reply of 3 bytes is too short$/ },
    { name: 'a token whose length runs past its frame', answer: (xid) => replyFrame(xid, 0, Buffer.from([0x7f, 0xff, 0xff, 0xf0, 1, 2])), line: /^SASL failed: SASL: token longer than its frame$/ },
    { name: 'a challenge without a nonce', answer: (xid) => saslReply(xid, 'realm="zk-sasl-md5",qop="auth",charset=utf-8,algorithm=md5-sess'), line: /^SASL failed: DIGEST-MD5: the server's challenge has no nonce$/ },
    { name: 'binary garbage as the challenge', answer: (xid) => saslReply(xid, Buffer.from([0, 1, 2, 0xff, 0xfe, 0x0a, 0x0d, 0x1b])), line: /^SASL failed: DIGEST-MD5: the server's challenge has no nonce$/ },
    {
      name: 'an absurdly long qop with control characters, bidi overrides and a command link',
      answer: (xid) => saslReply(xid, `nonce="abc",qop="${hostileQop}"`),
      line: /^SASL failed: DIGEST-MD5: the server offers qop ".*" only; ZooScope speaks "auth"$/,
    },
    {
      name: 'a nonce with control characters, then a wrong rspauth',
      answer: (xid, step) => saslReply(xid, step === 1 ? 'nonce="a\u0000b\nc\u202E",qop="auth",charset=utf-8' : 'rspauth=0123456789abcdef0123456789abcdef'),
      line: /^SASL failed: DIGEST-MD5: the server's rspauth is wrong: it does not know this user's password$/,
    },
    { name: 'an error code no server sends', answer: (xid) => replyFrame(xid, -987654), line: /^SASL DIGEST-MD5 as alice was rejected by the server \(error -987654\)$/ },
  ];
  for (const c of cases) {
    test(c.name, { timeout: 60000 }, async () => {
      const p = await saslPeer((xid, step) => c.answer(xid, step));
      const w = saslSession(p.port);
      const failure = await openFails(w.session);
      assert.equal(failure.reason, 'authFailed', failure.message);
      const line = w.session.lastSecurityProblem;
      assertOneCleanLine(line, 'the SASL failure');
      assert.match(line ?? '', c.line);
      assertOneCleanLine(failure.message, 'the ConnectFailure');
      assert.ok(failure.message.includes(line ?? '?'), failure.message);
      assert.deepEqual(w.problems, [line]);
      // The session was granted but never handed to the library: it never counted as connected.
      assert.ok(!w.states.includes('connected'), w.states.join(' → '));
      assert.equal(p.sessions.length, 1, 'final: no reconnect after authentication failed');
      const [, saslRequest] = p.sessions[0].frames;
      assert.equal(requestHeader(saslRequest).type, OpCode.sasl, 'the second frame was the SASL request');
    });
  }
});

describe('a peer that grants a session and never answers the SASL step', () => {
  test('the connection is dropped at the handshake deadline with a line naming SASL; the session retries and open() fails in time', { timeout: 60000 }, async () => {
    const p = await saslPeer(() => undefined);
    const server = `127.0.0.1:${p.port}`;
    const w = saslSession(p.port, 6000);
    const failure = await openFails(w.session);
    assert.equal(failure.reason, 'timedOut', failure.message);
    assertOneCleanLine(failure.message, 'the failure');
    const expected = new RegExp(`^connection to ${server.replace(/\./g, '\\.')} dropped: no answer to SASL DIGEST-MD5 within \\d+ ms$`);
    assert.ok(w.drops.length >= 1, 'dropped');
    for (const drop of w.drops) assert.match(drop, expected);
    assert.ok(failure.message.includes(w.drops[0]), `the failure says why: ${failure.message}`);
    // Not final: a server busy for a moment may answer the next connection.
    assert.ok(p.sessions.length >= 2, `tried again: ${p.sessions.length} connections`);
    assert.ok(!w.states.includes('connected'), w.states.join(' → '));
    assert.equal(w.session.lastDrop, w.drops[w.drops.length - 1]);
  });
});
