// The lock-queue panel inside a real VS Code against a real ZooKeeper: commands, a panel on a live queue whose
// webview shows holder then waiters (read from the `rendered` reports it sends its channel), live changes, polling
// only while visible, the serializer, and force-release with its confirmation and version check.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import type { ActionRequest, LockQueuePanelState } from '../../../src/shared/lockQueueMessages';
import { LockPanels } from '../../../src/vscode/lockQueue/lockPanels';
import type { LockQueuePanel } from '../../../src/vscode/lockQueue/lockQueuePanel';
import type { TestApi } from '../../../src/vscode/testApi';
import { LockQueueClients, startLockQueue } from '../../support/clients/lockQueueClients';
import { connectOtherClient, eventually, OtherClient } from '../../support/clients/zkClient';
import { watchPanel } from './lockPanelWatch';
import { existsVia, services, testZk } from './zooscope';

const ID = 'host-locks';
const BASE = `/host-locks-${Date.now().toString(36)}`;

/** The rows the panel's webview shows, once they pass `check` (as last rendered, or in a render to come). */
function waitForRows(panel: LockQueuePanel, check: (rows: string[]) => boolean, what: string): Promise<string[]> {
  return watchPanel(panel).rows(check, what);
}

const participantRows = (rows: string[]) => rows.filter((r) => /#\d+/.test(r));

describe('Lock queue panel', function () {
  let s: TestApi;
  let queue: LockQueueClients;
  const opened: LockQueuePanel[] = [];

  before(async () => {
    s = await services();
    queue = await startLockQueue(testZk(), `${BASE}/orders`, 3);
    await s.commands.addConnection({ id: ID, name: 'Host Locks', connectString: testZk() });
  });

  after(async () => {
    for (const p of opened) p.panel.dispose();
    queue?.close();
    const cleanup = await connectOtherClient(testZk());
    await cleanup.removeRecursive(BASE).catch(() => undefined);
    cleanup.close();
    await s.commands.removeConnection(ID, true);
  });

  async function open(path: string, command: 'showLockQueue' | 'showLocksUnder' = 'showLockQueue'): Promise<LockQueuePanel> {
    const panel = await s.commands[command](ID, path);
    assert.ok(panel, `${command} opened no panel`);
    watchPanel(panel);
    opened.push(panel);
    return panel;
  }

  it('registers its commands', async () => {
    const all = new Set(await vscode.commands.getCommands(true));
    for (const id of ['zooscope.showLockQueue', 'zooscope.showLocksUnder', 'zooscope.refreshEnsemble']) assert.ok(all.has(id), id);
  });

  it('marks a tree node whose listed children look like a lock queue', async () => {
    const node = await s.commands.goToPath(ID, `${BASE}/orders`);
    assert.ok(node?.kind === 'znode');
    await s.tree.getChildren(node);
    await eventually(() => /\blockqueue\b/.test(String(s.tree.getTreeItem(node).contextValue)), 5000, 'lockqueue in contextValue');
    assert.match(String(s.tree.getTreeItem(node).description), /lock queue \(plain-lock\)/);
    const parent = s.tree.getParent(node);
    assert.ok(parent?.kind === 'znode');
    await s.tree.getChildren(parent);
    assert.doesNotMatch(String(s.tree.getTreeItem(parent).contextValue), /lockqueue/, 'a folder of queues is not a queue');
  });

  it('opens on a real queue: holder first, waiters in order, with sessions, labels and watch edges', async () => {
    const panel = await open(`${BASE}/orders`);
    assert.strictEqual(panel.panel.viewType, 'zooscope.lockQueue');
    const rows = await waitForRows(panel, (r) => participantRows(r).length === 3, 'three participants');
    const people = participantRows(rows);
    assert.match(people[0], /#0/);
    assert.match(people[0], /holder/);
    for (const [i, c] of queue.contenders.entries()) {
      assert.ok(people[i].includes(c.path.split('/').pop()!), `row ${i} is ${c.path}: ${people[i]}`);
      assert.ok(people[i].includes(c.session), `row ${i} shows session ${c.session}`);
      assert.ok(people[i].includes(c.data), `row ${i} shows its data ${c.data}`);
    }
    assert.match(people[1], /waiting/);
    // Each waiter points at its predecessor (#0, #1), whether seen on the server or inferred.
    assert.match(people[1], /#0 lock-/);
    assert.match(people[2], /#1 lock-/);
    const analysis = panel.analysis!;
    assert.strictEqual(analysis.queues[0].participants[1].waitsFor[0], queue.contenders[0].path);
    const rendered = watchPanel(panel).rendered;
    assert.ok(rendered && rendered.rows >= 4, 'the webview reported a render');
  });

  it('serves its webview under a strict CSP: nothing but its nonce\'d script, its style sheets and the icon font', async () => {
    const panel = await open(`${BASE}/orders`);
    const html = panel.panel.webview.html;
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? '';
    const parts = /^default-src 'none'; script-src 'nonce-([A-Za-z0-9+/=]+)'; style-src (.+) 'nonce-\1'; font-src (.+)$/.exec(csp);
    assert.ok(parts, csp);
    assert.strictEqual(parts[2], parts[3], 'styles and fonts from the webview resource origin only');
    assert.doesNotMatch(parts[2], /\*(?!\.)|'unsafe|data:|http:/, parts[2]);
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    assert.ok(scripts.length === 1 && scripts[0].includes(`nonce="${nonce}"`), scripts.join());
    assert.doesNotMatch(html, /unsafe-(inline|eval)/);
    assert.doesNotMatch(html, /\sstyle="/, 'no inline style attributes');
  });

  it('shows a change in the queue without a refresh: a new waiter, then the holder leaving', async () => {
    const panel = await open(`${BASE}/orders`);
    await waitForRows(panel, (r) => participantRows(r).length === 3, 'three participants');
    const watch = watchPanel(panel);
    const sent = { models: watch.count('model'), deltas: watch.count('delta') };
    const before = Date.now();
    const joined = await queue.join('late-joiner');
    await eventually(() => panel.analysis?.queues[0]?.participants.some((p) => p.label === 'late-joiner') ?? false, 10000, 'the analysis sees the waiter');
    const analysed = Date.now() - before;
    const rows = await waitForRows(panel, (r) => participantRows(r).some((x) => x.includes('late-joiner')), 'the new waiter');
    // Figures for the record (never asserted: the machine is shared): create → analysis, create → rows shown.
    console.log(`      live change: analysis after ${analysed} ms, rows after ${Date.now() - before} ms (create included)`);
    assert.match(participantRows(rows)[3], /#3/);
    queue.leave(queue.contenders[0]);
    const after = await waitForRows(panel, (r) => participantRows(r).length === 3 && !r.some((x) => x.includes('worker-0')), 'the holder gone');
    assert.match(participantRows(after)[0], /worker-1/);
    assert.match(participantRows(after)[0], /holder/);
    assert.ok(joined.path);
    // Changes go as deltas on top of the model the webview has (a small queue's may go whole when most of it changed).
    assert.ok(watch.count('delta') > sent.deltas, `deltas ${sent.deltas} → ${watch.count('delta')}, models ${sent.models} → ${watch.count('model')}`);
  });

  it('reveals a participant\'s node in the ZooKeeper tree when the webview asks', async () => {
    const panel = await open(`${BASE}/orders`);
    const target = queue.contenders[1].path;
    await eventually(() => panel.analysis?.queues[0]?.participants.some((p) => p.path === target) ?? false, 20000, 'the panel shows the participant');
    const result = await panel.perform({ type: 'reveal', path: target });
    assert.strictEqual(result.ok, true, result.message);
    const selected = s.view.selection[0];
    assert.ok(selected?.kind === 'znode' && selected.path === target, `selected ${JSON.stringify(selected && 'path' in selected ? selected.path : selected)}`);
  });

  it('"Show Locks Under…" finds every queue of a subtree', async () => {
    const second = await startLockQueue(testZk(), `${BASE}/sub/payments`, 2, { dataPrefix: 'payer-' });
    try {
      const panel = await open(BASE, 'showLocksUnder');
      assert.strictEqual(panel.state.mode, 'subtree');
      const rows = await waitForRows(panel, (r) => r.some((x) => x.includes(`${BASE}/sub/payments`)) && r.some((x) => x.includes(`${BASE}/orders`)), 'both queues');
      assert.ok(rows.some((x) => x.includes('payer-1')));
    } finally {
      second.close();
    }
  });

  it('runs its monitor only while the panel is visible', async () => {
    const panel = await open(`${BASE}/orders`);
    await eventually(() => panel.isMonitoring, 10000, 'monitoring while visible');
    const doc = await vscode.workspace.openTextDocument({ content: 'cover the panel' });
    await vscode.window.showTextDocument(doc, { viewColumn: panel.panel.viewColumn, preview: false });
    await eventually(() => !panel.panel.visible && !panel.isMonitoring, 10000, 'stopped while hidden');
    const watch = watchPanel(panel);
    const hiddenAt = { posted: watch.posted.length, seq: watch.rendered?.seq ?? 0 };
    panel.reveal();
    await eventually(() => panel.panel.visible && panel.isMonitoring, 10000, 'monitoring again');
    await watch.rows((r) => participantRows(r).length >= 3, 'rows after being shown again', { after: hiddenAt.seq });
    // The webview was rebuilt (no retained context): it said `ready` and got the whole model, not a delta.
    const sentSince = watch.posted.slice(hiddenAt.posted).filter((t) => t === 'model' || t === 'delta');
    assert.strictEqual(sentSince[0], 'model', `after being shown again: ${sentSince.join(', ')}`);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor').then(undefined, () => undefined);
  });

  it('comes back from the serializer with the saved connection and root', async () => {
    const state: LockQueuePanelState = { connectionId: ID, root: `${BASE}/orders`, mode: 'queue' };
    for (const p of s.locks.all()) p.panel.dispose();
    const restored = vscode.window.createWebviewPanel('zooscope.lockQueue', 'restored', vscode.ViewColumn.Active, { enableScripts: true });
    await s.locks.deserializeWebviewPanel(restored, state);
    const panel = s.locks.get(state);
    assert.ok(panel, 'the restored panel is registered');
    opened.push(panel);
    await waitForRows(panel, (r) => participantRows(r).length >= 3, 'rows in the restored panel');
    const bogus = vscode.window.createWebviewPanel('zooscope.lockQueue', 'bogus', vscode.ViewColumn.Active, { enableScripts: true });
    let disposed = false;
    bogus.onDidDispose(() => { disposed = true; });
    await s.locks.deserializeWebviewPanel(bogus, { connectionId: 'no-such-connection', root: '/x', mode: 'queue' });
    assert.ok(disposed, 'a panel whose state names no saved connection is closed');
    // Restored without webview state (as code-server does after a reload), in a fresh extension host: matched by
    // title to the panels remembered in the workspace state.
    const remembered = new Map<string, unknown>([['zooscope.lockPanels', [{ connectionId: ID, root: '/elsewhere', mode: 'subtree' }, state]]]);
    const memento = { get: (key: string) => remembered.get(key), update: async (key: string, value: unknown) => { remembered.set(key, value); }, keys: () => [...remembered.keys()] };
    const fresh = new LockPanels(vscode.extensions.getExtension('zooscope.zooscope')!.extensionUri, memento as vscode.Memento, s,
      { acquire: async () => undefined, release: async () => false, sessionIds: (id) => s.heldLocks.sessionIds(id) });
    try {
      const stateless = vscode.window.createWebviewPanel('zooscope.lockQueue', `Lock Queue ${state.root}`, vscode.ViewColumn.Active, { enableScripts: true });
      await fresh.deserializeWebviewPanel(stateless, undefined);
      const revived = fresh.get(state);
      assert.strictEqual(revived?.panel, stateless, 'the panel was matched by its title');
      await waitForRows(revived, (r) => participantRows(r).length >= 3, 'rows in the panel restored without state');
    } finally {
      fresh.dispose();
    }
  });

  it('force-release asks first (naming session and client), deletes only at the version shown, and not on cancel', async () => {
    const locks = await startLockQueue(testZk(), `${BASE}/force`, 2);
    const panel = await open(`${BASE}/force`);
    const holder = locks.contenders[0];
    await eventually(() => panel.analysis?.queues[0]?.participants.length === 2, 20000, 'the panel sees both contenders');
    const window = vscode.window as { showWarningMessage: (...args: unknown[]) => Thenable<unknown> };
    const original = window.showWarningMessage;
    const asked: string[] = [];
    const inputs = vscode.window as { showInputBox: (...args: unknown[]) => Thenable<unknown> };
    const originalInput = inputs.showInputBox;
    const exists = (path: string) => s.connections.get(ID)!.session.exists(path);
    try {
      window.showWarningMessage = async (message: unknown, options: unknown) => {
        asked.push(`${String(message)} | ${JSON.stringify(options)}`);
        return undefined;
      };
      const cancelled = await panel.perform({ type: 'forceRelease', path: holder.path });
      assert.strictEqual(cancelled.ok, false);
      assert.ok(asked[0]?.includes(holder.session), `the question names session ${holder.session}: ${asked[0]}`);
      assert.match(asked[0], /client 127\.0\.0\.1:\d+|client [^)]+\)/, 'the question names the client');
      assert.match(asked[0], /"modal":true/);
      assert.ok(await exists(holder.path), 'not deleted on cancel');

      // Another session's live lock: after the dialog, the number of live nodes must be typed.
      window.showWarningMessage = async (_message: unknown, _options: unknown, ...items: unknown[]) => items[0];
      inputs.showInputBox = async () => undefined;
      const notTyped = await panel.perform({ type: 'forceRelease', path: holder.path });
      assert.strictEqual(notTyped.ok, false);
      assert.ok(await exists(holder.path), 'not deleted when the number was not typed');
      inputs.showInputBox = async () => '1';
      window.showWarningMessage = async (_message: unknown, _options: unknown, ...items: unknown[]) => {
        await holder.client.setData(holder.path, 'changed meanwhile');
        return items[0];
      };
      const raced = await panel.perform({ type: 'forceRelease', path: holder.path });
      assert.strictEqual(raced.ok, false);
      assert.match(raced.message ?? '', /changed since it was shown/);
      assert.ok(await exists(holder.path), 'not deleted when the version moved');

      window.showWarningMessage = async (_message: unknown, _options: unknown, ...items: unknown[]) => items[0];
      const done = await panel.perform({ type: 'forceRelease', path: holder.path });
      assert.strictEqual(done.ok, true, done.message);
      assert.strictEqual(await exists(holder.path), undefined, 'the holder node is gone');
      assert.ok(await exists(locks.contenders[1].path), 'only that node');
      await eventually(() => panel.analysis?.queues[0]?.participants[0]?.path === locks.contenders[1].path, 10000, 'the next waiter holds');
    } finally {
      window.showWarningMessage = original;
      inputs.showInputBox = originalInput;
      locks.close();
    }
  });

  it('acquires here and releases ours from the panel, through the Held Locks commands', async () => {
    const path = `${BASE}/panel-acquire`;
    const setup = await connectOtherClient(testZk());
    await setup.mkdirp(path);
    setup.close();
    const panel = await open(path);
    const acquired = await panel.perform({ type: 'acquire', queuePath: path });
    assert.strictEqual(acquired.ok, true, acquired.message);
    const mine = () => s.heldLocks.list(ID).find((e) => e.snapshot.path === path);
    await eventually(() => mine()?.snapshot.state === 'held', 20000, 'held in the Held Locks list');
    const node = mine()?.snapshot.node;
    assert.ok(node, 'our node');
    // The panel shows our node as ours (the lock session counts as one of ZooScope's own).
    await eventually(() => panel.analysis?.queues[0]?.participants.some((p) => p.path === node && p.ours === true) ?? false, 20000,
      `shown as ours (connection ${s.connections.state(ID)}, monitor ${!!(panel as unknown as { monitor: unknown }).monitor}, visible ${panel.panel.visible}, status ${JSON.stringify((panel as unknown as { status: unknown }).status)}, lock sessions ${JSON.stringify(s.heldLocks.sessionIds(ID))}, participants ${JSON.stringify(panel.analysis?.queues.map((q) => q.participants.map((p) => [p.path, p.session, p.ours])))})`);
    const released = await panel.perform({ type: 'release', path: node });
    assert.strictEqual(released.ok, true, released.message);
    await eventually(() => mine()?.snapshot.state === 'released', 20000, 'released');
    await eventually(() => (panel.analysis?.queues[0]?.participants.length ?? 0) === 0, 20000, 'the queue is empty again');
  });

  describe('acts only on what it shows', () => {
    const window = vscode.window as unknown as Record<string, unknown>;
    const asking = ['showWarningMessage', 'showInputBox', 'showQuickPick'] as const;
    let originals: unknown[] = [];
    let panel: LockQueuePanel;
    let other: OtherClient;
    let guarded: LockQueueClients;

    before(async () => {
      other = await connectOtherClient(testZk());
      await other.mkdirp(`${BASE}/elsewhere`);
      await other.create(`${BASE}/bystander`, 'not a lock');
      guarded = await startLockQueue(testZk(), `${BASE}/guarded`, 3);
      panel = await open(`${BASE}/guarded`);
      await eventually(() => panel.analysis?.queues[0]?.participants.length === 3, 20000, 'the panel shows the three contenders');
      // Every question answered yes (the first button, the typed count, the first pick): only the panel's own checks stop a write.
      originals = asking.map((name) => window[name]);
      window.showWarningMessage = async (_message: unknown, _options: unknown, ...items: unknown[]) => items[0];
      window.showInputBox = async () => '1';
      window.showQuickPick = async (items: unknown[]) => items[0];
    });

    after(() => {
      asking.forEach((name, i) => { window[name] = originals[i]; });
      guarded?.close();
      other?.close();
    });

    it('force-release of a path that is not a holder it shows deletes nothing', async () => {
      const notShown = await panel.perform({ type: 'forceRelease', path: `${BASE}/bystander` });
      assert.strictEqual(notShown.ok, false);
      assert.match(notShown.message ?? '', /not a holder this panel shows/);
      assert.strictEqual(await existsVia(other, `${BASE}/bystander`), true, 'the unprotected leaf is still there');
      const waiter = guarded.contenders[2].path;
      const waiting = await panel.perform({ type: 'forceRelease', path: waiter });
      assert.strictEqual(waiting.ok, false);
      assert.strictEqual(await existsVia(other, waiter), true, 'a waiter is not a holder: still there');
    });

    it('acquire outside the queues it shows creates nothing, and release of a node not ours releases nothing', async () => {
      const outside = await panel.perform({ type: 'acquire', queuePath: `${BASE}/elsewhere` });
      assert.strictEqual(outside.ok, false);
      assert.strictEqual(s.heldLocks.list(ID).find((e) => e.snapshot.path === `${BASE}/elsewhere`), undefined, 'no lock taken there');
      assert.deepStrictEqual(await other.children(`${BASE}/elsewhere`), [], 'no lock node created');
      const notOurs = await panel.perform({ type: 'release', path: guarded.contenders[0].path });
      assert.strictEqual(notOurs.ok, false);
      assert.strictEqual(await existsVia(other, guarded.contenders[0].path), true);
    });

    it('an unknown type or a malformed request is answered "not done", never thrown', async () => {
      const unknown = await panel.perform({ type: 'deleteEverything', path: `${BASE}/bystander` } as unknown as ActionRequest);
      assert.deepStrictEqual(unknown, { ok: false });
      for (const path of ['relative', `${BASE}/bystander/`, `${BASE}/\u0000x`, 42]) {
        assert.deepStrictEqual(await panel.perform({ type: 'forceRelease', path } as unknown as ActionRequest), { ok: false }, `path ${String(path)}`);
      }
      const replies: unknown[] = [];
      const listening = panel.channel.onDidPost((m) => { if (m.type === 'reply') replies.push(m); });
      try {
        for (const raw of [null, 'ready', [], { type: 'deleteEverything', requestId: 1 }, { type: 'forceRelease', requestId: -1, path: guarded.contenders[0].path }, { type: 'acquire', requestId: 2 }]) {
          await panel.channel.handle(raw);
        }
      } finally {
        listening.dispose();
      }
      assert.deepStrictEqual(replies, [], 'no reply to an ignored message');
      assert.strictEqual(await existsVia(other, guarded.contenders[0].path), true);
      assert.strictEqual(await existsVia(other, `${BASE}/bystander`), true);
    });
  });
});
