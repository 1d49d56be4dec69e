// Failover on a TLS-only path: a 3-server ensemble with a secure client port on each member (clientAuth=need), a
// session connected through the secure ports only. When the member it is on dies, the session moves to another
// member with a new, fully verified handshake, keeps its id, its watches and a lock it holds.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { LockManager } from '../../src/zk/locks';
import type { TlsConnectionInfo } from '../../src/zk/security/secureTransport';
import { ZkSession } from '../../src/zk/session/session';
import { ownerOf, trail } from '../support/clients/lockHelpers';
import { temporaryCertificates, tlsServerConfigLines } from '../support/servers/securedZkServer';
import type { TestCertificates } from '../support/servers/testCertificates';
import { within } from '../support/waiting';
import { connectOtherClient, eventually, OtherClient } from '../support/clients/zkClient';
import { startEnsemble, ZkCluster } from '../support/servers/zkServer';

describe('a TLS 3-server ensemble (clientAuth=need) loses the member the session is on', () => {
  let certs: { certificates: TestCertificates; remove(): void };
  let zk: ZkCluster;
  let other: OtherClient;
  const closers: (() => void)[] = [];

  before(async () => {
    certs = temporaryCertificates();
    zk = await startEnsemble(3, { secure: { configLines: tlsServerConfigLines(certs.certificates, 'need') } });
    // The other client only checks what the servers hold; it uses the plain ports the test servers also have.
    other = await connectOtherClient(zk.connectString, 30000);
  });
  after(async () => {
    for (const close of closers) close();
    other?.close();
    await zk?.stop();
    certs?.remove();
  });

  const tls = () => ({ caFile: certs.certificates.caCrt, certFile: certs.certificates.clientCrt, keyFile: certs.certificates.clientKey });

  test('the session moves on with a new verified handshake to another member, same id, its watch still fires', async () => {
    const s = new ZkSession({ connectString: zk.secureConnectString, sessionTimeoutMs: 20000, requestTimeoutMs: 8000, tls: tls() });
    closers.push(() => s.close());
    const handshakes: TlsConnectionInfo[] = [];
    s.channel.onSecurity((event) => { if (event.kind === 'tlsSecured') handshakes.push(event.info); });
    await s.open();
    const id = s.sessionId;
    const attached = s.serverAddress!;
    await other.create('/tls-failover', 'before');
    let changedResolve!: () => void;
    const changed = new Promise<void>((resolve) => { changedResolve = resolve; });
    // The other client's create was answered by another member: sync brings ours up to it (fresh run H, loaded, read
    // noNode here, and a thrown read ends eventually() at once).
    await s.sync('/tls-failover');
    assert.equal((await s.getData('/tls-failover')).data.toString(), 'before');
    // Resolves once the server has the watch.
    await s.watches.watch('/tls-failover', (event) => { if (event.kind === 'dataChanged') changedResolve(); });
    const lost = zk.member(Number(attached.split(':').pop()));
    await lost.kill();
    await eventually(() => s.state === 'connected' && s.serverAddress !== undefined && s.serverAddress !== attached, 30000, 'connected to another member');
    assert.equal(s.sessionId, id);
    const after = handshakes.filter((h) => h.server !== attached);
    assert.ok(after.length >= 1, `handshakes: ${handshakes.map((h) => h.server).join(', ')}`);
    assert.equal(after[0].serverNameChecked, true);
    assert.match(after[0].protocol, /^TLSv1\.[23]$/);
    assert.equal(s.security.tls?.server, s.serverAddress);
    // The watch's re-add went out as the session reconnected: a read answered after it means the member has it.
    await s.exists('/tls-failover');
    await other.setData('/tls-failover', 'after');
    await within(changed, 20000, 'the watch, re-registered after the failover, to fire');
    // Back to three members, so the next test can lose one and keep a quorum.
    await lost.restart();
  });

  test('a lock held over TLS is kept: suspended, then held again on another member with the same node and owner', async () => {
    const m = new LockManager({ connectString: zk.secureConnectString, sessionTimeoutMs: 20000, requestTimeoutMs: 8000, tls: tls() });
    closers.push(() => m.close());
    const h = await m.acquire('/tls-ensemble/lock');
    await h.whenHeld();
    const node = h.snapshot.node!;
    const attached = m.lockSession!.serverAddress!;
    const states = trail(h);
    const stillUp = zk.members.filter((member) => member.running && member.secureAddress !== attached);
    assert.ok(stillUp.length >= 1, 'another member is up');
    await zk.member(Number(attached.split(':').pop())).kill();
    await eventually(() => h.state === 'held' && m.lockSession?.serverAddress !== undefined && m.lockSession.serverAddress !== attached, 30000, 'held on another member');
    assert.deepEqual(states, ['held', 'suspended', 'held']);
    assert.equal(h.snapshot.node, node);
    assert.ok(m.lockSession?.security.tls, 'still over TLS');
    await eventually(async () => (await ownerOf(other, node)) === m.sessionId, 20000, 'owner seen by another client');
    await h.release();
  });
});
