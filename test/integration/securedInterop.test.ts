// ZooScope in other libraries' lock queues on a secured server: TLS with client certificates required and SASL
// DIGEST-MD5 enforced, so every client (Curator over Netty TLS with JAAS, kazoo with ssl and pure-sasl, ZooScope)
// must authenticate both ways. The queue is joined in order, and the lock-queue analysis reads it over the same
// TLS session, with who watches whom taken from the server's own tables (four-letter words over TLS).
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { analyzeLocks } from '../../src/zk/analysis/analyze';
import { LockManager } from '../../src/zk/locks';
import { ZkSession } from '../../src/zk/session/session';
import { javaClientSecurityFlags, SASL_USERS, SecuredZkServer, temporaryCertificates } from '../support/servers/securedZkServer';
import { freePort } from '../support/ports';
import type { TestCertificates } from '../support/servers/testCertificates';
import { startCurator } from '../support/thirdParty/curator';
import type { ThirdPartyClient } from '../support/thirdParty/driver';
import { startKazoo } from '../support/thirdParty/kazoo';
import { eventually } from '../support/clients/zkClient';

describe('lock queues shared with Curator and kazoo over TLS (clientAuth=need) with SASL enforced', () => {
  let certs: { certificates: TestCertificates; remove(): void };
  let c: TestCertificates;
  let server: SecuredZkServer;
  let curator: ThirdPartyClient;
  let kazoo: ThirdPartyClient;
  let jaasDir: string;
  const closers: (() => void)[] = [];

  before(async () => {
    certs = temporaryCertificates();
    c = certs.certificates;
    jaasDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-jaas-'));
    server = await SecuredZkServer.start({ certificates: c, tls: { keyStore: 'pkcs12', clientAuth: 'need' }, sasl: 'enforced' });
    [curator, kazoo] = await Promise.all([
      startCurator(server.tlsAddress, 30000, javaClientSecurityFlags(c, jaasDir, 'bob')),
      startKazoo(server.tlsAddress, 30000, {
        tls: { caFile: c.caCrt, certFile: c.clientCrt, keyFile: c.clientKey }, sasl: { username: 'bob', password: SASL_USERS.bob },
      }),
    ]);
  });
  after(async () => {
    for (const close of closers) close();
    await Promise.all([curator?.close(), kazoo?.close()]);
    await server?.dispose();
    certs?.remove();
    if (jaasDir) fs.rmSync(jaasDir, { recursive: true, force: true });
  });

  const secured = () => ({
    connectString: server.tlsAddress, sessionTimeoutMs: 30000, requestTimeoutMs: 8000,
    tls: { caFile: c.caCrt, certFile: c.clientCrt, keyFile: c.clientKey },
    sasl: { mechanism: 'DIGEST-MD5', username: 'alice', password: SASL_USERS.alice } as const,
  });

  test('Curator holds, ZooScope waits behind it (the analysis sees it over TLS), then holds; Curator waits behind ZooScope', async () => {
    const lockPath = '/secured-interop/mutex';
    curator.acquire('c-holder', 'mutex', lockPath);
    const theirs = await curator.waitForEvent('c-holder', 'acquired', 60000);
    const m = new LockManager(secured());
    closers.push(() => m.close());
    const h = await m.acquire(lockPath);
    await eventually(() => h.state === 'waiting', 20000, 'ZooScope waiting');
    assert.equal(h.snapshot.convention, 'curator-mutex');
    assert.equal(h.snapshot.waitingFor, theirs.node);
    assert.deepEqual(m.lockSession?.security.sasl, { mechanism: 'DIGEST-MD5', identity: 'alice' });

    // The panel's view of it, through its own TLS + SASL session: holder, waiter, and the watch edge as the
    // server itself reports it (no AdminServer here: four-letter words over TLS).
    const viewer = new ZkSession(secured());
    closers.push(() => viewer.close());
    await viewer.open();
    const closed = await freePort();
    const analysis = await analyzeLocks(viewer, lockPath, { adminPort: closed });
    const [server0] = analysis.servers;
    assert.equal(server0.via, 'fourLetterWords', server0.reason);
    assert.equal(server0.secure, true);
    const [queue] = analysis.queues;
    assert.ok(queue, 'the queue is found');
    const [first, second] = queue.participants;
    assert.equal(first.path, theirs.node);
    assert.equal(first.role, 'holder');
    assert.equal(second.path, h.snapshot.node);
    assert.equal(second.role, 'waiter');
    assert.ok(second.watches.some((w) => w.path === theirs.node && w.source === 'server'), JSON.stringify(second.watches));

    curator.release('c-holder');
    await h.whenHeld();
    curator.acquire('c-waiter', 'mutex', lockPath);
    const waiting = await curator.waitForEvent('c-waiter', 'waiting', 60000);
    const sequence = (node: string | undefined) => Number(/(\d{10})$/.exec(node ?? '')?.[1]);
    assert.ok(sequence(waiting.node) > sequence(h.snapshot.node), `Curator (${waiting.node}) queued behind ZooScope (${h.snapshot.node})`);
    await h.release();
    await curator.waitForEvent('c-waiter', 'acquired', 60000);
    curator.release('c-waiter');
  });

  test('kazoo holds, ZooScope waits behind it, then holds; kazoo waits behind ZooScope', async () => {
    const lockPath = '/secured-interop/kazoo';
    kazoo.acquire('k-holder', 'mutex', lockPath);
    const theirs = await kazoo.waitForEvent('k-holder', 'acquired', 60000);
    const m = new LockManager(secured());
    closers.push(() => m.close());
    const h = await m.acquire(lockPath);
    await eventually(() => h.state === 'waiting', 20000, 'ZooScope waiting');
    assert.equal(h.snapshot.convention, 'kazoo');
    assert.equal(h.snapshot.waitingFor, theirs.node);
    kazoo.release('k-holder');
    await h.whenHeld();
    kazoo.acquire('k-waiter', 'mutex', lockPath);
    await kazoo.waitForEvent('k-waiter', 'waiting', 60000);
    await h.release();
    await kazoo.waitForEvent('k-waiter', 'acquired', 60000);
    kazoo.release('k-waiter');
  });
});
