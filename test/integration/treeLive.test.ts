// The tree's live state (ConnectionTree, no vscode import): the elements it keeps as children come and go, and
// across a server restart and an ensemble failover, watches come back and the tree refreshes by itself. A node with
// many children follows them from the events (one recursive watch), exactly, and lists them again when it must.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { ZkSession } from '../../src/zk/session/session';
import { ConnectionTree, FOLLOW_CHILDREN_FROM, MOST_CHILD_EVENTS_APPLIED, TreeSettings } from '../../src/zk/tree/connectionTree';
import { sortChildren } from '../../src/zk/tree/naturalOrder';
import { mapBounded } from '../../src/zk/timeouts';
import { OpCode } from '../../src/zk/protocol/opcodes';
import { startProxy, withOpCode } from '../support/fakes/tcpProxy';
import { fourLetterWord } from '../support/ports';
import { ConnectionNode, PathNode, ZnodeNode } from '../../src/zk/tree/treeNodes';
import { startEnsemble, startStandalone, ZkCluster } from '../support/servers/zkServer';
import { connectOtherClient, eventually, OtherClient } from '../support/clients/zkClient';
import { holdRequestsFrom } from '../support/fakes/requestGate';
import * as fs from 'node:fs';
import * as path from 'node:path';

const settings = () => ({ pageSize: 1000, window: 256, liveUpdates: true, debounceMs: 30 });

/** Changes wait until the test applies them (applyPendingChanges), whatever the machine's speed. */
const heldChanges = () => ({ ...settings(), debounceMs: 600_000 });

async function liveTree(connectString: string, treeSettings: () => TreeSettings = settings) {
  const session = new ZkSession({ connectString, sessionTimeoutMs: 15000, requestTimeoutMs: 5000 });
  await session.open();
  const changed: PathNode[] = [];
  const tree = new ConnectionTree(new ConnectionNode('t'), session, treeSettings, (n) => changed.push(n), () => undefined);
  // On failure, say what the session went through (CI runs on loaded machines).
  const started = Date.now();
  const trail: string[] = [];
  session.on('state', (state) => trail.push(`${Date.now() - started}ms ${state}`));
  return { session, tree, changed, trail };
}

type LiveTree = Awaited<ReturnType<typeof liveTree>>;

/** Runs `body` with another client and a live tree on `connectString`; closes all of them afterwards. */
async function withLiveTree(connectString: string, body: (other: OtherClient, live: LiveTree) => Promise<void>,
  treeSettings: () => TreeSettings = settings): Promise<void> {
  const other = await connectOtherClient(connectString);
  let live: LiveTree | undefined;
  try {
    live = await liveTree(connectString, treeSettings);
    await body(other, live);
  } finally {
    live?.tree.dispose();
    live?.session.close();
    other.close();
  }
}

/** The last lines of a member's log, for failure messages. */
const logTail = (dir: string) => {
  try {
    return fs.readFileSync(path.join(dir, 'server.log'), 'utf8').split('\n').slice(-25).join('\n');
  } catch {
    return '(no log)';
  }
};

/** Shows `path` as the tree does (its element exists, its children are listed and watched); returns the names. */
const names = async (tree: ConnectionTree, path: string) => {
  const node = await tree.resolve(path);
  assert.ok(node, `${path} resolves`);
  return (await (await tree.openListing(node)).entries()).map((e) => e.name);
};

describe('tree refresh across faults', () => {
  let standalone: ZkCluster;
  let ensemble: ZkCluster;
  before(async () => {
    standalone = await startStandalone();
    ensemble = await startEnsemble(3);
  });
  after(async () => {
    await standalone?.stop();
    await ensemble?.stop();
  });

  test('a child removed by another client lets go of its element; children still listed keep theirs, with new Stats', async () => {
    await withLiveTree(standalone.connectString, async (other, { tree, changed }) => {
      await other.mkdirp('/elements/kept');
      await other.create('/elements/gone');
      assert.deepEqual(await names(tree, '/elements'), ['gone', 'kept']);
      const kept = tree.nodeAt('/elements/kept');
      assert.ok(kept && tree.nodeAt('/elements/gone'));
      changed.length = 0;
      await new Promise<void>((resolve, reject) => other.client.transaction().remove('/elements/gone')
        .setData('/elements/kept', Buffer.from('new')).commit((error) => (error ? reject(error) : resolve())));
      await eventually(() => changed.some((n) => n.path === '/elements'), 5000, 'the tree to see the removal');
      assert.deepEqual(await names(tree, '/elements'), ['kept']);
      // The map the tree keeps its elements in no longer holds the removed child (it kept every child ever listed).
      assert.equal(tree.nodeAt('/elements/gone'), undefined);
      assert.equal(tree.nodeAt('/elements/kept'), kept, 'the same element VS Code knows');
      await tree.refresh('/elements');
      assert.deepEqual(await names(tree, '/elements'), ['kept']);
      assert.equal(tree.nodeAt('/elements/kept'), kept, 'the same element after a refresh that reads every Stat again');
      assert.ok(kept.kind === 'znode' && kept.stat.dataLength === 3, 'with the Stat read again');
    });
  });

  test('a change event for children the tree already listed (a create, then Refresh) redraws nothing', async () => {
    await withLiveTree(standalone.connectString, async (other, { tree, changed }) => {
      await other.mkdirp('/seen/first');
      assert.deepEqual(await names(tree, '/seen'), ['first']);
      await other.create('/seen/second');
      await eventually(() => tree.pendingChanges.includes('/seen'), 5000, 'the create\'s event to arrive');
      // As after a create from the dialog: the reveal refreshes the parent before the event is applied.
      await tree.refresh('/seen');
      assert.deepEqual(await names(tree, '/seen'), ['first', 'second']);
      changed.length = 0;
      await tree.applyPendingChanges();
      assert.deepEqual(changed.map((n) => n.path), [], 'announcing /seen again makes VS Code forget its rows for a moment');
      // A change the listing has not seen is still announced.
      await other.create('/seen/third');
      await eventually(() => tree.pendingChanges.includes('/seen'), 5000, 'the next create\'s event to arrive');
      await tree.applyPendingChanges();
      assert.deepEqual(changed.map((n) => n.path), ['/seen']);
      assert.deepEqual(await names(tree, '/seen'), ['first', 'second', 'third']);
    }, heldChanges);
  });

  test('a child deleted and made again between two listings is shown with the new node\'s Stat', async () => {
    await withLiveTree(standalone.connectString, async (other, { tree, changed }) => {
      await other.mkdirp('/remade/node');
      assert.deepEqual(await names(tree, '/remade'), ['node']);
      const before = tree.nodeAt('/remade/node');
      assert.ok(before instanceof ZnodeNode);
      const oldCzxid = before.stat.czxid;
      await other.remove('/remade/node');
      await other.create('/remade/node', 'v2');
      await eventually(() => tree.pendingChanges.includes('/remade'), 5000, 'the events to arrive');
      changed.length = 0;
      await tree.applyPendingChanges();
      assert.deepEqual(changed.map((n) => n.path), ['/remade'], 'the same names, but not the same children');
      assert.deepEqual(await names(tree, '/remade'), ['node']);
      const after = tree.nodeAt('/remade/node');
      assert.ok(after instanceof ZnodeNode);
      assert.notEqual(after.stat.czxid, oldCzxid, 'the Stat of the node made again, not of the one deleted');
      assert.equal(after.stat.dataLength, 2);
    }, heldChanges);
  });

  test('a filter set on a node survives collapsing its parent; listed again, the node has a new element with the filter', async () => {
    await withLiveTree(standalone.connectString, async (other, { tree }) => {
      for (const name of ['lock-1', 'lock-2', 'other']) await other.mkdirp(`/filtered/node/${name}`);
      assert.deepEqual(await names(tree, '/filtered/node'), ['lock-1', 'lock-2', 'other']);
      const before = tree.nodeAt('/filtered/node');
      tree.listing('/filtered/node')!.setFilter({ text: 'lock-*', test: (name) => name.startsWith('lock-') });
      tree.collapse('/filtered');
      assert.deepEqual(await names(tree, '/filtered/node'), ['lock-1', 'lock-2']);
      assert.notEqual(tree.nodeAt('/filtered/node'), before, 'its parent was listed anew');
      assert.equal(tree.listing('/filtered/node')?.filter?.text, 'lock-*');
      const child = tree.nodeAt('/filtered/node/lock-1');
      assert.ok(child instanceof ZnodeNode && child.parent === tree.nodeAt('/filtered/node'), 'its children hang under the new element');
    });
  });

  test('expanding sends the listing right behind the watch, not after its answer (one round trip less)', async () => {
    await withLiveTree(standalone.connectString, async (other, { session, tree }) => {
      await other.mkdirp('/pipelined/first');
      await other.mkdirp('/pipelined/second/child');
      // The first watch of a session tells whether the server has persistent watches; until then, one at a time.
      assert.deepEqual(await names(tree, '/pipelined'), ['first', 'second']);
      assert.equal(session.watches.persistent, true);
      const gate = holdRequestsFrom(session.channel, () => false, async () => undefined);
      try {
        assert.deepEqual(await names(tree, '/pipelined/second'), ['child']);
      } finally {
        gate.restore();
      }
      assert.deepEqual(gate.wire.slice(0, 3), ['send addWatch', 'send getChildren', 'answer addWatch'], gate.wire.join(', '));
    });
  });

  test('a server restart: the session comes back and the tree shows changes made while it was down', async () => {
    const other = await connectOtherClient(standalone.connectString);
    await other.mkdirp('/restart/items');
    const { session, tree, changed, trail } = await liveTree(standalone.connectString);
    try {
      assert.deepEqual(await names(tree, '/restart/items'), []);
      const id = session.sessionId;
      other.close();
      changed.length = 0;
      await standalone.members[0].restart();
      trail.push('server serving again');
      // After the reconnect the tree re-reads what it shows (events may have been missed meanwhile). The library
      // retries within a second, but one attempt that hit the dying server may wait out its connect timeout
      // (session timeout / servers) first.
      await eventually(() => changed.some((n) => n.path === '/restart/items'), 20000, 'resync after reconnect')
        .catch((error: Error) => {
          throw new Error(`${error.message}\nstates: ${trail.join(', ')}\nserver log:\n${logTail(standalone.members[0].dir)}`);
        });
      assert.equal(session.state, 'connected');
      assert.equal(session.sessionId, id, 'same session');
      const writer = await connectOtherClient(standalone.connectString);
      changed.length = 0;
      await writer.create('/restart/items/after-restart');
      await eventually(() => changed.some((n) => n.path === '/restart/items'), 5000, 'tree change after restart');
      assert.deepEqual(await names(tree, '/restart/items'), ['after-restart']);
      writer.close();
    } finally {
      tree.dispose();
      session.close();
    }
  });

  test('an ensemble loses the member the session is on: the tree keeps working on another', async () => {
    const other = await connectOtherClient(ensemble.connectString);
    await other.mkdirp('/failover/items');
    const { session, tree, changed } = await liveTree(ensemble.connectString);
    try {
      assert.deepEqual(await names(tree, '/failover/items'), []);
      const attached = session.serverAddress;
      assert.ok(attached);
      const port = Number(attached.split(':').pop());
      changed.length = 0;
      await ensemble.member(port).kill();
      await eventually(() => session.state === 'connected' && session.serverAddress !== attached, 20000, 'moved to another member');
      await eventually(() => changed.some((n) => n.path === '/failover/items'), 15000, 'resync after failover');
      changed.length = 0;
      const writer = await connectOtherClient(ensemble.members.filter((m) => m.clientPort !== port).map((m) => m.address).join(','));
      await writer.create('/failover/items/after-failover');
      await eventually(() => changed.some((n) => n.path === '/failover/items'), 8000, 'tree change after failover');
      assert.deepEqual(await names(tree, '/failover/items'), ['after-failover']);
      writer.close();
      other.close();
    } finally {
      tree.dispose();
      session.close();
    }
  });
});

/** The path of a watch notification frame (reply header xid -1), else undefined. */
function notificationPath(frame: Buffer): string | undefined {
  if (frame.length < 32 || frame.readInt32BE(4) !== -1) return undefined;
  const length = frame.readInt32BE(28);
  return length < 0 ? undefined : frame.toString('utf8', 32, 32 + length);
}

/** The requests the session sends from now on, as `operation path` (they go out unchanged). */
function recordRequests(session: ZkSession): { wire: string[] } {
  const wire: string[] = [];
  const channel = session.channel;
  const send = channel.send.bind(channel);
  channel.send = (opCode, body, operation, path) => {
    wire.push(`${operation} ${path ?? ''}`);
    return send(opCode, body, operation, path);
  };
  return { wire };
}

/** How many times `wire` lists `path`'s children. */
const relists = (wire: string[], path: string) => wire.filter((w) => w === `getChildren ${path}`).length;

/** Names in display order, as a fresh getChildren by another client has them. */
const freshNames = async (other: OtherClient, path: string) => sortChildren(await other.children(path));

describe('a node with many children follows them from the events', () => {
  let zk: ZkCluster;
  /** Follows from 10 children, so small nodes show the same paths a wide one takes. */
  const followSmall = () => ({ ...heldChanges(), followChildrenFrom: 10 });
  const makeChildren = (other: OtherClient, path: string, count: number) =>
    mapBounded(Array.from({ length: count }, (_, i) => `${path}/item-${i + 1}`), 256, (child) => other.create(child));

  before(async () => {
    zk = await startStandalone();
  });
  after(async () => {
    await zk?.stop();
  });

  test('with the default threshold: creates and deletes in and outside the page arrive one by one, with no listing again', async () => {
    await withLiveTree(zk.connectString, async (other, { session, tree, changed }) => {
      await other.mkdirp('/wide/node');
      await makeChildren(other, '/wide/node', FOLLOW_CHILDREN_FROM);
      const page = await names(tree, '/wide/node');
      assert.equal(page.length, 1000);
      assert.deepEqual(tree.followedPaths, ['/wide/node']);
      const listing = tree.listing('/wide/node')!;
      const wire = recordRequests(session).wire;
      try {
        // In the page (sorts first), after it, one of the page deleted, and a change deeper down (not a child).
        await other.create('/wide/node/aaa-new');
        await other.create('/wide/node/item-99999');
        await other.remove('/wide/node/item-2');
        await other.create('/wide/node/item-5/deeper');
        await other.create('/wide/node/zzz-last');
        // The answer to a read of our own comes after the events of every write done before it.
        assert.equal((await session.exists('/wide/node'))?.numChildren, FOLLOW_CHILDREN_FROM + 2);
        assert.deepEqual(tree.pendingChanges, ['/wide/node']);
        changed.length = 0;
        await tree.applyPendingChanges();
        assert.deepEqual(changed.map((n) => n.path), ['/wide/node']);
        assert.equal(listing.total, FOLLOW_CHILDREN_FROM + 2);
        const shown = (await listing.entries()).map((e) => e.name);
        assert.deepEqual(shown, (await freshNames(other, '/wide/node')).slice(0, 1000));
        assert.equal(shown[0], 'aaa-new');
        assert.ok(!shown.includes('item-2'));
        const node = tree.nodeAt('/wide/node');
        assert.ok(node instanceof ZnodeNode && node.stat.numChildren === FOLLOW_CHILDREN_FROM + 2, 'the node counts its children anew');
        assert.equal(relists(wire, '/wide/node'), 0, `no getChildren: ${wire.join(', ')}`);
      } finally {
        await other.removeRecursive('/wide');
      }
    }, heldChanges);
  });

  test('a burst of creates and deletes from two clients: the listing equals a fresh getChildren, still without listing again', async () => {
    await withLiveTree(zk.connectString, async (other, { session, tree }) => {
      await other.mkdirp('/burst');
      await makeChildren(other, '/burst', 40);
      // Every name shown: the listing's page is all of them.
      await names(tree, '/burst');
      assert.deepEqual(tree.followedPaths, ['/burst']);
      const wire = recordRequests(session).wire;
      const second = await connectOtherClient(zk.connectString);
      try {
        const burst: Promise<unknown>[] = [];
        for (let i = 1; i <= 150; i++) {
          const writer = i % 2 ? other : second;
          burst.push(writer.create(`/burst/new-${i}`));
          if (i % 3 === 0 && i / 3 <= 40) burst.push(writer.remove(`/burst/item-${i / 3}`));
          // Created and deleted within the burst, on one session: the delete follows its create.
          if (i % 5 === 0) burst.push(writer.remove(`/burst/new-${i}`));
        }
        await Promise.allSettled(burst);
        const expected = await freshNames(other, '/burst');
        await eventually(async () => {
          await tree.applyPendingChanges();
          return tree.listing('/burst')!.total === expected.length;
        }, 10000, 'the listing to take every event');
        assert.deepEqual((await tree.listing('/burst')!.entries()).map((e) => e.name), expected);
        assert.equal(relists(wire, '/burst'), 0, `no getChildren: ${wire.join(', ')}`);
      } finally {
        second.close();
      }
    }, () => ({ ...followSmall(), pageSize: 1000 }));
  });

  test('a create the listing has seen (Refresh first) redraws nothing; a child deleted and made again gets its new Stat', async () => {
    await withLiveTree(zk.connectString, async (other, { session, tree, changed }) => {
      await other.mkdirp('/seenwide');
      await makeChildren(other, '/seenwide', 12);
      await names(tree, '/seenwide');
      assert.deepEqual(tree.followedPaths, ['/seenwide']);
      await other.create('/seenwide/aaa');
      await eventually(() => tree.pendingChanges.includes('/seenwide'), 5000, 'the create\'s event to arrive');
      await tree.refresh('/seenwide');
      assert.equal((await names(tree, '/seenwide'))[0], 'aaa');
      changed.length = 0;
      await tree.applyPendingChanges();
      assert.deepEqual(changed.map((n) => n.path), [], 'announcing the node again makes VS Code forget its rows for a moment');
      const before = tree.nodeAt('/seenwide/item-3');
      assert.ok(before instanceof ZnodeNode);
      const oldCzxid = before.stat.czxid;
      await other.remove('/seenwide/item-3');
      await other.create('/seenwide/item-3', 'v2');
      const wire = recordRequests(session).wire;
      await eventually(() => tree.pendingChanges.includes('/seenwide'), 5000, 'the events to arrive');
      // Our own read is answered after both events.
      await session.exists('/seenwide');
      await tree.applyPendingChanges();
      assert.deepEqual(changed.map((n) => n.path), ['/seenwide']);
      assert.deepEqual(await names(tree, '/seenwide'), await freshNames(other, '/seenwide'));
      const after = tree.nodeAt('/seenwide/item-3');
      assert.ok(after instanceof ZnodeNode && after.stat.czxid !== oldCzxid && after.stat.dataLength === 2, 'the new node\'s Stat');
      assert.equal(relists(wire, '/seenwide'), 0, wire.join(', '));
    }, followSmall);
  });

  test('a bulk change (more events at once than are applied one by one) lists the children again, once', async () => {
    await withLiveTree(zk.connectString, async (other, { session, tree }) => {
      await other.mkdirp('/bulk');
      await makeChildren(other, '/bulk', 12);
      await names(tree, '/bulk');
      assert.deepEqual(tree.followedPaths, ['/bulk']);
      const wire = recordRequests(session).wire;
      await mapBounded(Array.from({ length: MOST_CHILD_EVENTS_APPLIED + 1 }, (_, i) => `/bulk/bulk-${i}`), 64, (child) => other.create(child));
      // Our own read is answered after every event.
      await session.exists('/bulk');
      await tree.applyPendingChanges();
      assert.deepEqual((await tree.listing('/bulk')!.entries()).map((e) => e.name), (await freshNames(other, '/bulk')).slice(0, 1000));
      assert.equal(tree.listing('/bulk')!.total, 12 + MOST_CHILD_EVENTS_APPLIED + 1);
      assert.equal(relists(wire, '/bulk'), 1, wire.join(', '));
    }, followSmall);
  });

  test('a missed event: the next change finds the count wrong and lists the children again, once', async () => {
    let drop = false;
    let dropped = 0;
    const proxy = await startProxy(zk.members[0].clientPort, {
      rewriteServerFrame: (f) => {
        if (drop && notificationPath(f.frame) === '/missed/lost') {
          dropped++;
          return null;
        }
        return undefined;
      },
    });
    try {
      await withLiveTree(`127.0.0.1:${proxy.port}`, async (other, { session, tree }) => {
        await other.mkdirp('/missed');
        await makeChildren(other, '/missed', 12);
        await names(tree, '/missed');
        assert.deepEqual(tree.followedPaths, ['/missed']);
        const wire = recordRequests(session).wire;
        drop = true;
        await other.create('/missed/lost');
        await eventually(() => dropped === 1, 5000, 'the proxy to drop the event');
        await other.create('/missed/seen');
        await eventually(() => tree.pendingChanges.includes('/missed'), 5000, 'the next event to arrive');
        await tree.applyPendingChanges();
        assert.deepEqual((await tree.listing('/missed')!.entries()).map((e) => e.name), await freshNames(other, '/missed'));
        assert.equal(relists(wire, '/missed'), 1, wire.join(', '));
      }, followSmall);
    } finally {
      await proxy.close();
    }
  });

  test('after a reconnect: listed again once with what changed meanwhile, then followed from the events again', async () => {
    const proxy = await startProxy(zk.members[0].clientPort);
    try {
      await withLiveTree(`127.0.0.1:${proxy.port}`, async (other, { session, tree }) => {
        await other.mkdirp('/across');
        await makeChildren(other, '/across', 12);
        await names(tree, '/across');
        assert.deepEqual(tree.followedPaths, ['/across']);
        await proxy.refuse(true);
        proxy.cutAll();
        await eventually(() => session.state !== 'connected', 5000, 'the session to see the cut');
        // `other` goes through the proxy too: these writes go straight to the server.
        const direct = await connectOtherClient(zk.connectString);
        try {
          await direct.remove('/across/item-1');
          await direct.create('/across/while-away');
        } finally {
          direct.close();
        }
        const wire = recordRequests(session).wire;
        await proxy.refuse(false);
        await eventually(() => session.state === 'connected' && tree.pendingChanges.includes('/across'), 20000, 'the resync after the reconnect');
        await tree.applyPendingChanges();
        assert.deepEqual((await tree.listing('/across')!.entries()).map((e) => e.name), await freshNames(other, '/across'));
        assert.equal(relists(wire, '/across'), 1, wire.join(', '));
        // The recursive watch is back: the next child comes by its event.
        await other.create('/across/after');
        await eventually(() => tree.pendingChanges.includes('/across'), 5000, 'the event after the reconnect');
        await tree.applyPendingChanges();
        assert.deepEqual((await tree.listing('/across')!.entries()).map((e) => e.name), await freshNames(other, '/across'));
        assert.equal(relists(wire, '/across'), 1, wire.join(', '));
      }, followSmall);
    } finally {
      await proxy.close();
    }
  });

  test('collapsing drops the recursive watch on the server; the node deleted lets go of its listing', async () => {
    await withLiveTree(zk.connectString, async (other, { session, tree }) => {
      await other.mkdirp('/folded');
      await makeChildren(other, '/folded', 12);
      await names(tree, '/folded');
      assert.deepEqual(tree.followedPaths, ['/folded']);
      const watchedHere = async () => (await fourLetterWord(zk.members[0].clientPort, 'wchp')).split('\n').some((line) => line.trim() === '/folded');
      assert.equal(await watchedHere(), true);
      tree.collapse('/');
      assert.deepEqual(tree.followedPaths, []);
      await eventually(async () => !(await watchedHere()), 5000, 'the server to drop the watch');
      // Followed again, then the node goes (its children first).
      await names(tree, '/folded');
      assert.deepEqual(tree.followedPaths, ['/folded']);
      await other.removeRecursive('/folded');
      await eventually(() => tree.listing('/folded') === undefined, 5000, 'the deletion to reach the tree');
      assert.deepEqual(tree.followedPaths, []);
      assert.equal(session.state, 'connected');
    }, followSmall);
  });

  test('a server without addWatch: the wide node keeps the old watch and is listed again on each change', async () => {
    const proxy = await startProxy(zk.members[0].clientPort, {
      rewriteClientFrame: (f) => (f.opCode === OpCode.addWatch ? withOpCode(f.frame, 250) : undefined),
    });
    try {
      await withLiveTree(`127.0.0.1:${proxy.port}`, async (other, { session, tree }) => {
        await other.mkdirp('/oldserver');
        await makeChildren(other, '/oldserver', 12);
        await names(tree, '/oldserver');
        assert.equal(session.watches.persistent, false);
        assert.deepEqual(tree.followedPaths, []);
        await other.create('/oldserver/new');
        await eventually(() => tree.pendingChanges.includes('/oldserver'), 5000, 'the one-shot watch to fire');
        await tree.applyPendingChanges();
        assert.deepEqual((await tree.listing('/oldserver')!.entries()).map((e) => e.name), await freshNames(other, '/oldserver'));
      }, followSmall);
    } finally {
      await proxy.close();
    }
  });
});
