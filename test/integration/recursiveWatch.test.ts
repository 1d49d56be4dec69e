// Persistent-recursive watches (addWatch mode 1) against a real server: every change below the root arrives with
// its path, the watch survives a server restart (re-added on reconnect), and dropping it stops the events.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { ZkSession } from '../../src/zk/session/session';
import { WatchEvent } from '../../src/zk/session/watchRegistry';
import { startStandalone, ZkCluster } from '../support/servers/zkServer';
import { connectOtherClient, eventually, OtherClient } from '../support/clients/zkClient';

describe('persistent-recursive watches', () => {
  let zk: ZkCluster;
  let other: OtherClient;
  let session: ZkSession;

  before(async () => {
    zk = await startStandalone();
    other = await connectOtherClient(zk.connectString, 30000);
    session = new ZkSession({ connectString: zk.connectString, sessionTimeoutMs: 20000, requestTimeoutMs: 5000 });
    await session.open();
  });

  after(async () => {
    session?.close();
    other?.close();
    await zk?.stop();
  });

  const seen = (events: WatchEvent[]) => events.map((e) => `${e.kind} ${e.path}`);

  test('reports created, dataChanged and deleted for the root and every descendant', async () => {
    await other.mkdirp('/rw/tree');
    const events: WatchEvent[] = [];
    const stop = await session.watches.watchTree('/rw/tree', (e) => events.push(e));
    try {
      await other.create('/rw/tree/a', 'x');
      await other.create('/rw/tree/a/b', 'y');
      await other.setData('/rw/tree/a/b', 'z');
      await other.remove('/rw/tree/a/b');
      await other.setData('/rw/tree', 'root');
      await other.create('/rw/outside', 'not below the root');
      await eventually(() => events.length >= 5, 5000, 'five events');
      assert.deepEqual(seen(events), [
        'created /rw/tree/a', 'created /rw/tree/a/b', 'dataChanged /rw/tree/a/b', 'deleted /rw/tree/a/b', 'dataChanged /rw/tree',
      ]);
    } finally {
      stop();
    }
  });

  test('survives a server restart: re-added on reconnect, with a resync for the root', async () => {
    await other.mkdirp('/rw/restart');
    const events: WatchEvent[] = [];
    const stop = await session.watches.watchTree('/rw/restart', (e) => events.push(e));
    try {
      other.close();
      await zk.members[0].restart();
      await eventually(() => events.some((e) => e.kind === 'resync' && e.path === '/rw/restart'), 20000, 'resync after reconnect');
      other = await connectOtherClient(zk.connectString, 30000);
      await other.mkdirp('/rw/restart/after/deep');
      await eventually(() => seen(events).includes('created /rw/restart/after/deep'), 5000, 'event from the re-added watch');
    } finally {
      stop();
    }
  });

  test('dropping the watch stops its events; a plain watch on the same path keeps working', async () => {
    await other.mkdirp('/rw/drop');
    const treeEvents: WatchEvent[] = [];
    const plainEvents: WatchEvent[] = [];
    const stopPlain = await session.watches.watch('/rw/drop', (e) => plainEvents.push(e));
    const stopTree = await session.watches.watchTree('/rw/drop', (e) => treeEvents.push(e));
    stopTree();
    await other.create('/rw/drop/child', 'x');
    // The plain watch's childrenChanged comes after any tree event the server would have sent for the same write.
    await eventually(() => plainEvents.some((e) => e.kind === 'childrenChanged'), 5000, 'the plain watch fires');
    assert.deepEqual(seen(treeEvents), []);
    stopPlain();
  });
});
