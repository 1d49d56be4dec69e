// A server that accepts the TCP connection but never answers the session handshake (seen while a restarted
// server starts up): node-zookeeper-client would wait on that socket forever. The session must give up on it and
// try again in time to keep the session.
import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { ZkSession } from '../../src/zk/session/session';
import { startStandalone, ZkCluster } from '../support/servers/zkServer';
import { startProxy, TcpProxy } from '../support/fakes/tcpProxy';
import { eventually } from '../support/clients/zkClient';

let zk: ZkCluster;
let proxy: TcpProxy;
/** Connections (by the proxy's count) whose ConnectRequest is swallowed. */
const silentConnections = new Set<number>();

before(async () => {
  zk = await startStandalone();
  proxy = await startProxy(zk.members[0].clientPort, {
    rewriteClientFrame: (f) => (f.isConnectRequest && silentConnections.has(f.connection) ? null : undefined),
  });
});

after(async () => {
  await proxy?.close();
  await zk?.stop();
});

test('a handshake that gets no answer is dropped and retried, and the session survives', async () => {
  const session = new ZkSession({ connectString: `127.0.0.1:${proxy.port}`, sessionTimeoutMs: 12000, requestTimeoutMs: 5000 });
  try {
    await session.open();
    const id = session.sessionId;
    // Usually 1; a loaded machine may already have given up on a slow first handshake.
    const opened = proxy.connections;
    silentConnections.add(opened + 1);
    // Told by its event, not polled: a loaded machine can pass through 'suspended' between two polls (run S4).
    const states: string[] = [];
    session.on('state', (state: string) => states.push(state));
    proxy.cutAll();
    await eventually(() => states.includes('suspended'), 10000, 'suspended');
    // The next connection hangs in the handshake; only a new attempt after it can bring the session back.
    await eventually(() => session.state === 'connected', 10000, 'reconnected on a new connection');
    assert.ok(proxy.connections >= opened + 2, `retried on a new connection (${proxy.connections} after ${opened})`);
    assert.equal(session.sessionId, id, 'same session');
    await session.exists('/zookeeper');
  } finally {
    session.close();
  }
});
