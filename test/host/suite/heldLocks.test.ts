// Locks held by hand inside a real VS Code against a real ZooKeeper: the lock commands (exclusive, read/write
// sharing, election), the Held Locks view and the status bar count, a repeated request reported, the waiting
// notification's position and cancel, the lost-lock warning when another client deletes our node or the lock
// session expires, a held lock unsure while its session has no connection, digest credentials on the lock
// session, the palette's path check, the convention question, and release on disconnect.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import * as zookeeper from 'node-zookeeper-client';
import type { LockSnapshot } from '../../../src/zk/locks';
import type { HeldLockNode } from '../../../src/vscode/heldLocks/heldLocksView';
import { positionText } from '../../../src/vscode/heldLocks/lockTexts';
import type { TestApi } from '../../../src/vscode/testApi';
import { closeSessionAsTwin, ownerOf } from '../../support/clients/lockHelpers';
import { startProxy } from '../../support/fakes/tcpProxy';
import { connectOtherClient, eventually, OtherClient } from '../../support/clients/zkClient';
import { services, testZk } from './zooscope';
import { captureWindow, writingSettings } from './heldLocksHelpers';

const ID = 'host-held';
const BASE = `/host-held-${Date.now().toString(36)}`;

describe('Held locks', function () {
  let s: TestApi;
  let other: OtherClient;

  const entry = (path: string) => s.heldLocks.find(ID, path);
  const state = (path: string) => entry(path)?.snapshot.state;
  const rows = () => s.heldLocksTree.getChildren().filter((n): n is HeldLockNode => n.kind === 'heldLock');
  const row = (path: string) => rows().find((n) => n.entry.snapshot.path === path);
  const item = (path: string) => { const n = row(path); assert.ok(n, `no Held Locks row for ${path}`); return s.heldLocksTree.getTreeItem(n); };
  const acquire = (command: string, path: string, extra: object = {}) =>
    vscode.commands.executeCommand<LockSnapshot | undefined>(command, { connectionId: ID, path, ...extra });

  /**
   * Runs `run` with a connection of its own (`id`) through a TCP proxy to the test server, which the test can cut,
   * refuse or freeze; releases its locks and removes the connection and the proxy afterwards.
   */
  async function throughProxy(id: string, name: string, sessionTimeoutMs: number, proxyOptions: Parameters<typeof startProxy>[1],
    run: (proxy: Awaited<ReturnType<typeof startProxy>>) => Promise<void>): Promise<void> {
    const proxy = await startProxy(Number(testZk().split(':').pop()), proxyOptions);
    try {
      await writingSettings(() => s.commands.addConnection({ id, name, connectString: `127.0.0.1:${proxy.port}`, sessionTimeoutMs }));
      await run(proxy);
    } finally {
      await s.heldLocks.releaseAll(id);
      await writingSettings(() => s.commands.removeConnection(id, true));
      await proxy.close();
    }
  }

  before(async () => {
    s = await services();
    other = await connectOtherClient(testZk());
    await other.mkdirp(BASE);
    await writingSettings(() => s.commands.addConnection({ id: ID, name: 'Host Held Locks', connectString: testZk() }));
  });

  afterEach(async () => {
    await s.heldLocks.releaseAll(ID);
    s.heldLocks.clear();
  });

  after(async () => {
    if (other) await other.removeRecursive(BASE);
    other?.close();
    await writingSettings(() => s.commands.removeConnection(ID, true));
  });

  it('says the place in the queue as an ordinal ("3rd of 7")', () => {
    const said = [1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111, 112].map((index) => positionText({ index, of: 120 }).split(' ')[0]);
    assert.deepStrictEqual(said, ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '23rd', '101st', '111th', '112th']);
    assert.strictEqual(positionText({ index: 3, of: 7 }), '3rd of 7');
  });

  it('registers the lock commands', async () => {
    const all = new Set(await vscode.commands.getCommands(true));
    for (const id of ['acquireLock', 'acquireReadLock', 'acquireWriteLock', 'joinElection', 'releaseLock', 'releaseAllLocks', 'revealHeldLock', 'clearHeldLocks']) {
      assert.ok(all.has(`zooscope.${id}`), id);
    }
  });

  it('acquires an exclusive lock on an explorer node, shows it, and releases it by its node path', async () => {
    const path = `${BASE}/exclusive`;
    await other.mkdirp(path);
    const node = await s.tree.treeFor(ID)!.resolve(path);
    assert.ok(node, 'the explorer resolves the path');
    await vscode.commands.executeCommand('zooscope.acquireLock', node);
    await eventually(() => state(path) === 'held', 60000, 'held');
    const snap = entry(path)!.snapshot;
    assert.ok(snap.node?.startsWith(`${path}/`), snap.node);
    assert.match(snap.node!, /-lock-\d{10}$/, 'ZooScope\'s own naming on an empty path');
    // Its own session: not the explorer's.
    assert.strictEqual(await ownerOf(other, snap.node!), snap.sessionId);
    assert.notStrictEqual(snap.sessionId, s.connections.get(ID)?.session.sessionId);
    const it = item(path);
    assert.match(String(it.description), /^held · exclusive lock · since \d.* · \/host-held-/);
    assert.strictEqual(it.label, 'exclusive');
    assert.strictEqual(it.accessibilityInformation?.label, `${path}, ${String(it.description)}`);
    assert.match(String(it.contextValue), /^heldLock live state-held/);
    const facts = s.heldLocksTree.getChildren(row(path)).map((f) => `${String(s.heldLocksTree.getTreeItem(f).label)}=${String(s.heldLocksTree.getTreeItem(f).description)}`);
    assert.ok(facts.includes(`Own node=${snap.node!.split('/').pop()}`), facts.join());
    assert.ok(facts.includes(`Session=${snap.sessionId}`), facts.join());
    await eventually(() => s.heldLocksStatusBar.text === '$(lock) 1 held', 15000, `status bar (${s.heldLocksStatusBar.text})`);
    assert.strictEqual(s.heldLocksStatusBar.accessibleLabel, '1 lock held by this window');
    assert.strictEqual(s.heldLocksStatusBar.tooltip, `Locks and elections this window holds:\n${path}`, 'one line per lock, the breaks kept');
    const revealed = await vscode.commands.executeCommand<{ path?: string } | undefined>('zooscope.revealHeldLock', row(path));
    assert.strictEqual(revealed?.path, snap.node, 'Reveal shows our node in the explorer');

    // As the lock-queue panel calls it: `{ connectionId, path: <our node> }`.
    const released = await vscode.commands.executeCommand<boolean>('zooscope.releaseLock', { connectionId: ID, path: snap.node });
    assert.strictEqual(released, true);
    assert.strictEqual(state(path), 'released');
    assert.strictEqual(await ownerOf(other, snap.node!), undefined, 'our node is gone');
    assert.strictEqual(s.heldLocksStatusBar.text, '', 'the status bar item hides when nothing is held');
    assert.match(String(item(path).contextValue), /^heldLock ended state-released/);
    assert.strictEqual(await vscode.commands.executeCommand('zooscope.clearHeldLocks', row(path)), 1);
    assert.strictEqual(row(path), undefined, 'cleared');
  });

  it('shares a read lock with another reader, and a write lock waits for the reader', async () => {
    const path = `${BASE}/rw`;
    await other.mkdirp(path);
    const reader = await other.create(`${path}/0123456789abcdef0123456789abcdef-read-`, 'other reader', zookeeper.CreateMode.EPHEMERAL_SEQUENTIAL);
    await acquire('zooscope.acquireReadLock', path);
    await eventually(() => state(path) === 'held', 60000, 'read lock held next to the other reader');
    assert.match(entry(path)!.snapshot.node!, /-read-\d{10}$/);
    assert.ok(await ownerOf(other, reader), 'the other reader still holds');
    await s.heldLocks.release(entry(path)!);

    const writePath = `${BASE}/rw-write`;
    await other.mkdirp(writePath);
    const reader2 = await other.create(`${writePath}/0123456789abcdef0123456789abcdef-read-`, 'other reader', zookeeper.CreateMode.EPHEMERAL_SEQUENTIAL);
    await acquire('zooscope.acquireWriteLock', writePath);
    await eventually(() => state(writePath) === 'waiting', 60000, 'the writer waits');
    assert.strictEqual(entry(writePath)!.snapshot.waitingFor, reader2);
    await other.remove(reader2);
    await eventually(() => state(writePath) === 'held', 60000, 'the writer holds once the reader left');
    assert.match(String(item(writePath).description), /^held · write lock · since/);
  });

  it('joins an election and leads it', async () => {
    const path = `${BASE}/election`;
    await acquire('zooscope.joinElection', path);
    await eventually(() => state(path) === 'leader', 60000, 'leader');
    assert.match(String(item(path).description), /^leader · election · since/);
    assert.match(String(item(path).contextValue), /state-leader/);
    assert.strictEqual(s.heldLocksStatusBar.text, '$(lock) 1 held');
  });

  it('reports a repeated request instead of queuing twice', async () => {
    const path = `${BASE}/repeat`;
    await acquire('zooscope.acquireLock', path);
    await eventually(() => state(path) === 'held', 60000, 'held');
    const said = captureWindow('showInformationMessage');
    try {
      await acquire('zooscope.acquireLock', path);
    } finally {
      said.restore();
    }
    assert.match(said.messages.join('\n'), new RegExp(`already takes part in ${path} \\(exclusive lock, held\\): it was not queued again`));
    const children = await new Promise<string[]>((resolve, reject) => other.client.getChildren(path, (e, c) => (e ? reject(e) : resolve(c))));
    assert.strictEqual(children.length, 1, `one node only: ${children.join()}`);
    assert.strictEqual(entry(path)!.snapshot.repeatedRequests, 1);
    assert.strictEqual(rows().filter((n) => n.entry.snapshot.path === path).length, 1, 'one row');
  });

  it('shows the place in the queue and the node waited for, live, and cancel removes our node', async () => {
    const path = `${BASE}/queue`;
    await other.mkdirp(path);
    const first = await other.create(`${path}/lock-`, 'holder', zookeeper.CreateMode.EPHEMERAL_SEQUENTIAL);
    const second = await other.create(`${path}/lock-`, 'waiter', zookeeper.CreateMode.EPHEMERAL_SEQUENTIAL);
    const progress = captureWindow('withProgress');
    try {
      await acquire('zooscope.acquireLock', path);
      await eventually(() => progress.reports.length > 0, 60000, 'a waiting notification');
      assert.strictEqual(progress.titles[0], `Waiting for the lock ${path}`);
      await eventually(() => progress.reports.at(-1) === `3rd of 3, waiting for ${second.split('/').pop()}`, 60000, `position (${progress.reports.join(' | ')})`);
      assert.match(String(item(path).description), new RegExp(`3rd of 3, waiting for ${second.split('/').pop()}`));
      // Someone ahead (not the node we watch) leaves: the position follows (re-read at the poll interval).
      await other.remove(first);
      await eventually(() => progress.reports.at(-1) === `2nd of 2, waiting for ${second.split('/').pop()}`, 60000, `position after a leave (${progress.reports.join(' | ')})`);
      const ours = entry(path)!.snapshot.node!;
      assert.ok(await ownerOf(other, ours));
      progress.cancel();
      await eventually(() => state(path) === 'cancelled', 60000, 'cancelled');
      await eventually(async () => (await ownerOf(other, ours)) === undefined, 60000, 'our node removed');
      assert.ok(progress.done, 'the notification closed');
    } finally {
      progress.restore();
    }
  });

  it('warns at once when another client deletes our node, and marks the lock lost', async () => {
    const path = `${BASE}/lost`;
    await acquire('zooscope.acquireLock', path);
    await eventually(() => state(path) === 'held', 60000, 'held');
    const warnings = captureWindow('showWarningMessage');
    try {
      await other.remove(entry(path)!.snapshot.node!);
      await eventually(() => warnings.messages.length > 0, 30000, 'a warning');
    } finally {
      warnings.restore();
    }
    assert.match(warnings.messages[0], new RegExp(`^Lost the lock ${path} on "Host Held Locks": its node [0-9a-f]{32}-lock-\\d{10} was deleted by someone else`));
    assert.strictEqual(state(path), 'lost');
    assert.match(String(item(path).contextValue), /^heldLock ended state-lost/);
    const facts = s.heldLocksTree.getChildren(row(path)).map((f) => String(s.heldLocksTree.getTreeItem(f).label));
    assert.ok(facts.includes('Lost because'), facts.join());
    assert.strictEqual(s.heldLocksStatusBar.text, '');
  });

  it('warns at once when the lock session expires, for the held lock and the waiting one, and the next acquire gets a new session', async () => {
    // Through a proxy, so the expiry is certain: the lock session's connection is cut and kept out while a twin
    // closes the session on the server (else it may come back between the twin's attach and its close, and find its
    // node gone before it hears the session expired); let back in, it is told the session expired.
    const proxied = 'host-held-expire';
    const held = `${BASE}/expire-held`;
    const waiting = `${BASE}/expire-wait`;
    const find = (path: string) => s.heldLocks.find(proxied, path)?.snapshot;
    const take = (path: string) => vscode.commands.executeCommand('zooscope.acquireLock', { connectionId: proxied, path });
    await throughProxy(proxied, 'Host Held Locks (expiry)', 30000, undefined, async (proxy) => {
      const warnings = captureWindow('showWarningMessage');
      const lost = () => warnings.messages.filter((m) => m.startsWith('Lost the lock'));
      try {
        await other.mkdirp(waiting);
        await other.create(`${waiting}/lock-`, 'other holder', zookeeper.CreateMode.EPHEMERAL_SEQUENTIAL);
        await take(held);
        await take(waiting);
        await eventually(() => find(held)?.state === 'held' && find(waiting)?.state === 'waiting', 60000, 'one held, one waiting');
        const nodes = [find(held)!.node!, find(waiting)!.node!];
        const manager = s.heldLocks.managers.peek(proxied)!;
        const expiredSession = manager.sessionId;
        const client = manager.lockSession!.client;
        await proxy.refuse(true);
        proxy.cutAll();
        await closeSessionAsTwin(testZk(), client.getSessionId(), client.getSessionPassword());
        await proxy.refuse(false);
        await eventually(() => lost().length >= 2, 60000, 'two warnings').catch((error: Error) => {
          throw new Error(`${error.message}; states ${find(held)?.state}/${find(waiting)?.state}, session ${manager.lockSession?.state ?? 'none'}; warnings: ${warnings.messages.join(' | ')}`);
        });
        const said = lost().join('\n');
        assert.match(said, new RegExp(`Lost the lock ${held} on "Host Held Locks \\(expiry\\)": the lock session expired\\. Do not act as its holder any more\\.`));
        assert.match(said, new RegExp(`Lost the lock ${waiting} on "Host Held Locks \\(expiry\\)": the lock session expired`));
        assert.strictEqual(lost().length, 2, said);
        for (const path of [held, waiting]) {
          assert.strictEqual(find(path)?.state, 'lost');
          assert.strictEqual(find(path)?.lostReason, 'sessionExpired');
        }
        assert.strictEqual(s.heldLocksStatusBar.text, '');
        for (const n of nodes) assert.strictEqual(await ownerOf(other, n), undefined, `${n} is gone with the session`);
        await take(held);
        await eventually(() => find(held)?.state === 'held', 60000, 'held again');
        assert.notStrictEqual(manager.sessionId, expiredSession);
      } finally {
        warnings.restore();
      }
    });
  });

  it('marks a held lock unsure while its session has no connection, and held again (same node, same session) after', async () => {
    const proxied = 'host-held-proxy';
    const path = `${BASE}/suspend`;
    await throughProxy(proxied, 'Host Held Locks (proxy)', 30000, undefined, async (proxy) => {
      await vscode.commands.executeCommand('zooscope.acquireLock', { connectionId: proxied, path });
      const find = () => s.heldLocks.find(proxied, path)?.snapshot;
      await eventually(() => find()?.state === 'held', 60000, 'held');
      const { node, sessionId } = find()!;
      await proxy.refuse(true);
      proxy.cutAll();
      await eventually(() => find()?.state === 'suspended', 30000, 'suspended');
      assert.strictEqual(find()!.suspendedFrom, 'held');
      assert.strictEqual(s.heldLocksStatusBar.text, '$(lock) 1 unsure');
      const suspendedRow = rows().find((n) => n.entry.connectionId === proxied)!;
      assert.match(String(s.heldLocksTree.getTreeItem(suspendedRow).description), /suspended \(connection lost, unsure\)/);
      await proxy.refuse(false);
      await eventually(() => find()?.state === 'held', 60000, 'held again');
      assert.strictEqual(find()!.node, node);
      assert.strictEqual(find()!.sessionId, sessionId);
      assert.strictEqual(await ownerOf(other, node!), sessionId);
      assert.strictEqual(s.heldLocksStatusBar.text, '$(lock) 1 held');
    });
  });

  it('a held lock whose server hangs with its socket open turns unsure before the ensemble can give the lock to anyone else', async () => {
    let hung = false;
    // A frozen server: connections stay open, nothing gets through in either direction.
    const frozen = { rewriteClientFrame: () => (hung ? null : undefined), rewriteServerData: () => (hung ? null : undefined) };
    const proxied = 'host-held-hung';
    const path = `${BASE}/hung`;
    const order: string[] = [];
    await throughProxy(proxied, 'Host Held Locks (hung)', 4000, frozen, async (proxy) => {
      try {
        await vscode.commands.executeCommand('zooscope.acquireLock', { connectionId: proxied, path });
        const find = () => s.heldLocks.find(proxied, path)?.snapshot;
        await eventually(() => find()?.state === 'held', 60000, 'held');
        const { node } = find()!;
        // The moment the server expires the session, its node goes and another client could take the lock.
        const gone = new Promise<void>((resolve, reject) => other.client.exists(node!, (event) => {
          if (event.getType() === zookeeper.Event.NODE_DELETED) { order.push('node deleted'); resolve(); }
        }, (e) => { if (e) reject(e); }));
        const unsure = eventually(() => {
          if (find()?.state !== 'suspended' || !s.heldLocksStatusBar.text.includes('unsure')) return false;
          order.push('unsure');
          return true;
        }, 30000, 'unsure');
        hung = true;
        await Promise.all([unsure, gone]);
        assert.deepStrictEqual(order, ['unsure', 'node deleted'], 'the window said "unsure" before the lock could pass on');
        assert.strictEqual(find()!.suspendedFrom, 'held');
        hung = false;
        proxy.cutAll();
        await eventually(() => find()?.state === 'lost', 30000, 'lost once the expiry is known');
      } finally {
        hung = false; // before the connection's locks are released through the proxy
      }
    });
  });

  it('asks which naming rules to follow in a queue of unknown names, and joins with the choice', async () => {
    const path = `${BASE}/unknown`;
    await other.mkdirp(path);
    await other.create(`${path}/job-`, 'someone', zookeeper.CreateMode.EPHEMERAL_SEQUENTIAL);
    const picks = captureWindow('showQuickPick', (items) => (items as { id: string }[]).find((i) => i.id === 'kazoo'));
    try {
      await acquire('zooscope.acquireLock', path);
    } finally {
      picks.restore();
    }
    assert.ok(picks.placeHolders[0]?.includes('no known lock library'), picks.placeHolders[0]);
    assert.ok(picks.labels[0].includes('plain') && picks.labels[0].includes('kazoo'), picks.labels[0].join());
    assert.ok(!picks.labels[0].includes('curator-latch'), 'a latch has no exclusive lock: not offered');
    await eventually(() => entry(path)?.snapshot.node !== undefined, 60000, 'our node');
    assert.match(entry(path)!.snapshot.node!, /__lock__\d{10}$/, 'named as kazoo names its nodes');

    const backedOut = `${BASE}/unknown-2`;
    await other.mkdirp(backedOut);
    await other.create(`${backedOut}/job-`, 'someone', zookeeper.CreateMode.EPHEMERAL_SEQUENTIAL);
    const escape = captureWindow('showQuickPick', () => undefined);
    try {
      assert.strictEqual(await acquire('zooscope.acquireLock', backedOut), undefined);
    } finally {
      escape.restore();
    }
    assert.strictEqual(entry(backedOut), undefined, 'nothing joined when the user backs out');

    // Naming rules given in the command's argument (another extension, a command link) are not taken: still asked.
    const planted = captureWindow('showQuickPick', () => undefined);
    try {
      assert.strictEqual(await acquire('zooscope.acquireLock', backedOut, { convention: 'kazoo' }), undefined);
    } finally {
      planted.restore();
    }
    assert.strictEqual(planted.labels.length, 1, 'the question was asked');
    assert.strictEqual(entry(backedOut), undefined, 'nothing joined without the user\'s choice');
  });

  it('on a folder of lock queues offers those queues and joins the one chosen; beside other nodes it asks first', async () => {
    const folder = `${BASE}/queues`;
    await other.mkdirp(`${folder}/curator-mutex`);
    await other.mkdirp(`${folder}/kazoo-lock`);
    const kazooNode = await other.create(`${folder}/kazoo-lock/${'a'.repeat(32)}__lock__`, 'worker', zookeeper.CreateMode.EPHEMERAL_SEQUENTIAL);
    await other.create(`${folder}/curator-mutex/_c_${'b'.repeat(8)}-bbbb-bbbb-bbbb-${'b'.repeat(12)}-lock-`, 'worker', zookeeper.CreateMode.EPHEMERAL_SEQUENTIAL);
    const picks = captureWindow('showQuickPick', (items) => (items as { path: string }[]).find((i) => i.path === `${folder}/kazoo-lock`));
    try {
      await acquire('zooscope.acquireLock', folder);
    } finally {
      picks.restore();
    }
    assert.ok(picks.placeHolders[0]?.includes('no lock nodes, but lock queues below it'), picks.placeHolders[0]);
    assert.deepStrictEqual(picks.labels[0].slice(0, 2).sort(), [`${folder}/curator-mutex`, `${folder}/kazoo-lock`].map((p) => `$(lock) ${p}`));
    assert.strictEqual(entry(folder), undefined, 'no lock at the folder itself');
    await eventually(() => entry(`${folder}/kazoo-lock`)?.snapshot.state === 'waiting', 60000, 'waiting in the kazoo queue');
    assert.strictEqual(entry(`${folder}/kazoo-lock`)!.snapshot.waitingFor, kazooNode);
    assert.deepStrictEqual((await other.children(folder)).sort(), ['curator-mutex', 'kazoo-lock'], 'nothing created beside the queues');

    const backOut = captureWindow('showQuickPick', () => undefined);
    try {
      assert.strictEqual(await acquire('zooscope.acquireLock', folder), undefined);
    } finally {
      backOut.restore();
    }
    assert.deepStrictEqual((await other.children(folder)).sort(), ['curator-mutex', 'kazoo-lock'], 'nothing created when the user backs out');

    const config = `${BASE}/app-config`;
    await other.mkdirp(`${config}/settings`);
    const dialogs = captureWindow('showWarningMessage');
    try {
      assert.strictEqual(await acquire('zooscope.acquireLock', config), undefined);
    } finally {
      dialogs.restore();
    }
    assert.ok(dialogs.messages[0]?.includes('no lock nodes'), dialogs.messages.join(' | '));
    assert.deepStrictEqual(await other.children(config), ['settings'], 'nothing created without a yes');
  });

  it('asks the palette for a valid path', async () => {
    const inputs = captureWindow('showInputBox', () => `${BASE}/palette`);
    try {
      await vscode.commands.executeCommand('zooscope.acquireLock', ID);
    } finally {
      inputs.restore();
    }
    const validate = inputs.validators[0];
    assert.ok(validate, 'the input box validates');
    assert.match(String(validate('relative/path')), /must start with "\/"/);
    assert.match(String(validate('/')), /below "\/"/);
    assert.match(String(validate('/a/')), /must not end with/);
    assert.strictEqual(validate('/a/b'), undefined);
    await eventually(() => state(`${BASE}/palette`) === 'held', 60000, 'held');
  });

  it('uses the connection\'s digest credentials on the lock session', async () => {
    const authId = `${ID}-auth`;
    const path = `${BASE}/acl`;
    const owner = await connectOtherClient(testZk());
    try {
      owner.client.addAuthInfo('digest', Buffer.from('locker:secret'));
      await new Promise<void>((resolve, reject) => owner.client.create(path, Buffer.alloc(0), [new zookeeper.ACL(zookeeper.Permission.ALL, new zookeeper.Id('auth', ''))], zookeeper.CreateMode.PERSISTENT, (e) => (e ? reject(e) : resolve())));
      await writingSettings(() => s.commands.addConnection({ id: authId, name: 'Host Held Locks (auth)', connectString: testZk(), digestUser: 'locker', password: 'secret' }));
      await vscode.commands.executeCommand('zooscope.acquireLock', { connectionId: authId, path });
      await eventually(() => s.heldLocks.find(authId, path)?.snapshot.state === 'held', 60000, 'held under a digest ACL');
    } finally {
      await s.heldLocks.releaseAll(authId);
      await writingSettings(() => s.commands.removeConnection(authId, true));
      await owner.removeRecursive(path); // only its creator may list it
      owner.close();
    }
    assert.strictEqual(s.heldLocks.find(authId, path)?.snapshot.state, undefined, 'a removed connection leaves no rows');
  });

  it('releases every lock of a connection when it is disconnected', async () => {
    await s.connections.connect(ID);
    await acquire('zooscope.acquireLock', `${BASE}/d1`);
    await acquire('zooscope.joinElection', `${BASE}/d2`);
    await eventually(() => state(`${BASE}/d1`) === 'held' && state(`${BASE}/d2`) === 'leader', 60000, 'both held');
    const nodes = [entry(`${BASE}/d1`)!.snapshot.node!, entry(`${BASE}/d2`)!.snapshot.node!];
    assert.strictEqual(s.heldLocksStatusBar.text, '$(lock) 2 held');
    const said = captureWindow('showInformationMessage');
    try {
      await vscode.commands.executeCommand('zooscope.disconnect', ID);
      await eventually(() => state(`${BASE}/d1`) === 'released' && state(`${BASE}/d2`) === 'released', 30000, 'released');
    } finally {
      said.restore();
    }
    assert.match(said.messages.join('\n'), /Released 2 locks: the lock session of "Host Held Locks" was closed/);
    for (const n of nodes) await eventually(async () => (await ownerOf(other, n)) === undefined, 30000, `${n} deleted`);
    assert.strictEqual(s.heldLocksStatusBar.text, '');
    await s.connections.connect(ID);
  });

  it('Release All releases every lock of the window', async () => {
    await acquire('zooscope.acquireLock', `${BASE}/all-1`);
    await acquire('zooscope.acquireWriteLock', `${BASE}/all-2`);
    await eventually(() => state(`${BASE}/all-1`) === 'held' && state(`${BASE}/all-2`) === 'held', 60000, 'both held');
    assert.strictEqual(await vscode.commands.executeCommand('zooscope.releaseAllLocks'), 2);
    assert.strictEqual(state(`${BASE}/all-1`), 'released');
    assert.strictEqual(state(`${BASE}/all-2`), 'released');
  });
});
