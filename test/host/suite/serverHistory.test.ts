// Server history inside a real VS Code, read from a real server's data directory: a node's every version and who
// removed it, opened as a diff of what a change did; a lock's queue after the fact in the lock panel; the tree at a
// past moment compared with now in the Differences view. Names from the logs stay inert everywhere.
import * as assert from 'node:assert';
import * as path from 'node:path';
import * as vscode from 'vscode';
import * as zookeeper from 'node-zookeeper-client';
import type { TestApi } from '../../../src/vscode/testApi';
import { HOSTILE_NAMES, RAW_HIDDEN } from '../../support/fixtures/hostileFixture';
import { startStandalone, ZkCluster } from '../../support/servers/zkServer';
import { connectOtherClient, OtherClient } from '../../support/clients/zkClient';
import { services } from './zooscope';

const ID = 'host-server-history';
const HOSTILE = HOSTILE_NAMES.rtlOverride;
const lockNode = (n: number) => `_c_0f0e0d0c-0b0a-0908-0706-050403020100-lock-${String(n).padStart(10, '0')}`;

describe('Server history from a real server\'s logs', function () {
  let s: TestApi;
  let zk: ZkCluster;
  let folder: string;
  let beforeDelete: string;

  before(async () => {
    s = await services();
    zk = await startStandalone({ adminServer: false, systemProperties: { 'zookeeper.snapCount': '8' } });
    folder = path.join(zk.members[0].dir, 'data');
    const writer = await connectOtherClient(zk.connectString);
    const deleter = await connectOtherClient(zk.connectString);
    let holder: OtherClient | undefined;
    let waiter: OtherClient | undefined;
    try {
      await writer.mkdirp('/past/lock');
      await writer.create(`/past/${HOSTILE}`, 'port=1\n');
      await writer.setData(`/past/${HOSTILE}`, 'port=2\n');
      await writer.setData(`/past/${HOSTILE}`, 'port=3\n');
      // A Curator-named mutex: one holds, one waits, the holder releases and the waiter takes over.
      [holder, waiter] = await Promise.all([connectOtherClient(zk.connectString), connectOtherClient(zk.connectString)]);
      await holder.create(`/past/lock/${lockNode(0)}`, '', zookeeper.CreateMode.EPHEMERAL);
      await waiter.create(`/past/lock/${lockNode(1)}`, '', zookeeper.CreateMode.EPHEMERAL);
      await holder.remove(`/past/lock/${lockNode(0)}`);
      await waiter.remove(`/past/lock/${lockNode(1)}`);
      // A kazoo-shaped semaphore (a lease taken under its lock beside it) and a fixed leader node, made and deleted.
      await writer.mkdirp('/past/sem-__lock__');
      await writer.mkdirp('/past/sem');
      await holder.create(`/past/sem-__lock__/${'a'.repeat(32)}__lock__0000000000`, '', zookeeper.CreateMode.EPHEMERAL);
      await holder.create(`/past/sem/${'a'.repeat(32)}`, 'lease', zookeeper.CreateMode.EPHEMERAL);
      await holder.remove(`/past/sem-__lock__/${'a'.repeat(32)}__lock__0000000000`);
      await holder.remove(`/past/sem/${'a'.repeat(32)}`);
      await waiter.create('/past/master', 'leader', zookeeper.CreateMode.EPHEMERAL);
      await waiter.remove('/past/master');
      beforeDelete = new Date().toISOString();
      // The moment must be strictly before the delete's millisecond.
      await new Promise((resolve) => setTimeout(resolve, 20));
      await deleter.remove(`/past/${HOSTILE}`);
      await writer.create('/past/after', 'new');
    } finally {
      holder?.close();
      waiter?.close();
      writer.close();
      deleter.close();
    }
    await s.commands.addConnection({ id: ID, name: 'Server history', connectString: zk.connectString });
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await s?.commands.removeConnection(ID, true);
    await zk?.stop();
  });

  it('Node History: every version and the delete with its session, a change opened as a diff of what it did', async () => {
    const entries = (await s.commands.showNodeServerHistory(ID, { folders: [folder], path: `/past/${HOSTILE}`, open: 1 }))!;
    assert.deepStrictEqual(entries.map((e) => `${e.op}${e.removed ? ` ${e.removed}` : ''}`), ['create', 'setData', 'setData', 'delete deleted']);
    assert.notStrictEqual(entries[3].session, entries[0].session, 'deleted by another session than the writer');
    // Newest first: 1 is the last setData (port=2 → port=3).
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    assert.ok(tab?.input instanceof vscode.TabInputTextDiff, 'a diff editor is open');
    assert.ok(!RAW_HIDDEN.test(tab.label), `title inert: ${JSON.stringify(tab.label)}`);
    const [left, right] = await Promise.all([vscode.workspace.openTextDocument(tab.input.original), vscode.workspace.openTextDocument(tab.input.modified)]);
    assert.deepStrictEqual([left.getText(), right.getText()], ['port=2\n', 'port=3\n']);
  });

  it('Node History again: answered from the logs read before, and read anew once the server wrote more', async () => {
    const ask = async () => (await s.commands.showNodeServerHistory(ID, { folders: [folder], path: '/past/after', open: 0 }))!.map((e) => e.op);
    assert.deepStrictEqual(await ask(), ['create']);
    const writer = await connectOtherClient(zk.connectString);
    try {
      await writer.setData('/past/after', 'newer');
    } finally {
      writer.close();
    }
    assert.deepStrictEqual(await ask(), ['create', 'setData'], 'the log file changed: the index was read again');
  });

  it('Lock History from Server Logs: the hand-over after the fact, in the lock panel\'s timeline', async () => {
    const result = await s.commands.lockHistoryFromServerLogs(ID, { folders: [folder], path: '/past/lock' });
    assert.ok(result, 'a history was built');
    assert.strictEqual(result.intervals, 3, 'two holds and one wait');
    const replay = s.locks.replayPanels().at(-1)!;
    assert.match(replay.panel.title, /\/past\/lock \(server logs\)/);
  });

  it('Lock History from Server Logs on a semaphore\'s path and on a fixed leader node\'s', async () => {
    const semaphore = await s.commands.lockHistoryFromServerLogs(ID, { folders: [folder], path: '/past/sem' });
    assert.strictEqual(semaphore?.intervals, 2, 'the lease held, and the wait for it under the semaphore\'s lock');
    assert.match(s.locks.replayPanels().at(-1)!.panel.title, /\/past\/sem \(server logs\)/);
    const leader = await s.commands.lockHistoryFromServerLogs(ID, { folders: [folder], path: '/past/master' });
    assert.strictEqual(leader?.intervals, 1, 'one leadership');
  });

  it('Compare with a Past Moment: the tree before the delete against now, in the Differences view', async () => {
    const moment = (await s.commands.compareWithPastMoment({ connectionId: ID, path: '/past' }, { folders: [folder], moment: beforeDelete }))!;
    assert.ok(moment.file.endsWith('.json'));
    const view = s.compareResults;
    const rows = view.getChildren().flatMap((item) => [item, ...view.getChildren(item)]).map((item) => view.getTreeItem(item));
    const labels = rows.map((row) => (typeof row.label === 'string' ? row.label : row.label?.label ?? ''));
    assert.ok(labels.includes("/after"), `only now: ${labels.join(" | ")} ${JSON.stringify(s.shownMessages.slice(-3))}`);
    assert.ok(labels.includes('/invoice-[U+202E]gnp.exe'), `only then, inert: ${labels.join(' | ')}`);
    assert.ok(labels.every((label) => !RAW_HIDDEN.test(label)));
  });
});
