// The Watch Census view inside a real VS Code against a real ZooKeeper: a census taken on a connection lists the
// session that watches the most with its count, the herd recipe's lock as a herd, sorts and filters from its title
// bar, and a watched path reveals itself in the explorer.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import * as zookeeper from 'node-zookeeper-client';
import type { CensusNode } from '../../../src/vscode/watchCensus/censusProvider';
import type { TestApi } from '../../../src/vscode/testApi';
import type { PathNode } from '../../../src/zk/tree/treeNodes';
import { connectOtherClient, eventually, OtherClient } from '../../support/clients/zkClient';
import { services, testZk } from './zooscope';

const ID = 'host-watch-census';
const BASE = '/host-census';

describe('Watch Census view', function () {
  this.timeout(120000);
  let s: TestApi;
  const clients: OtherClient[] = [];

  before(async () => {
    s = await services();
    for (let i = 0; i < 4; i++) clients.push(await connectOtherClient(testZk()));
    const [holder, ...waiters] = clients;
    await holder.mkdirp(`${BASE}/lock`);
    await holder.mkdirp(`${BASE}/watched`);
    for (const c of clients.slice(0, 3)) await c.create(`${BASE}/lock/lock-`, '', zookeeper.CreateMode.EPHEMERAL_SEQUENTIAL);
    for (const w of waiters.slice(0, 2)) await w.watch(`${BASE}/lock`, 'getChildren');
    for (let i = 0; i < 40; i++) await holder.create(`${BASE}/watched/n${i}`, '');
    const leaker = clients[3];
    await Promise.all(Array.from({ length: 40 }, (_, i) => leaker.watch(`${BASE}/watched/n${i}`)));
    await s.commands.addConnection({ id: ID, name: 'Host Watch Census', connectString: testZk() });
    await vscode.commands.executeCommand('zooscope.connect', ID);
  });

  after(async () => {
    for (const c of clients) c.close();
    await s.commands.removeConnection(ID, true);
  });

  const item = (node: CensusNode) => s.census.getTreeItem(node);
  const section = (name: string) => s.census.getChildren().find((n) => n.kind === 'section' && n.section === name)!;

  it('lists the session with the most watches and the herd recipe\'s lock as a herd', async () => {
    await vscode.commands.executeCommand('zooscope.takeWatchCensus', ID);
    assert.ok(s.census.shown, 'a census is shown');
    const [top] = s.census.getChildren(section('sessions'));
    assert.ok(top.kind === 'session');
    assert.strictEqual(top.session.id, clients[3].sessionId);
    assert.match(String(item(top).description), /^40 watches · 127\.0\.0\.1:\d+ on /);
    const herd = s.census.getChildren(section('herd')).find((n) => n.kind === 'herd' && n.risk.lock === `${BASE}/lock`);
    assert.ok(herd && herd.kind === 'herd', 'the lock is judged');
    assert.strictEqual(herd.risk.risk, 'herd');
    assert.match(String(item(herd).description), /^herd: 2 waiters, 0 watch their predecessor, 2 unseen$/);
    assert.strictEqual(item(herd).command?.command, 'zooscope.openCensusLock');
  });

  it('sorts by name and filters from the title bar; a watched path reveals in the explorer', async () => {
    const paths = () => s.census.getChildren(section('paths')).map((n) => (n.kind === 'path' ? n.path : ''));
    await vscode.commands.executeCommand('zooscope.sortWatchCensus');
    const byName = paths();
    assert.deepStrictEqual(byName, [...byName].sort());
    s.census.setFilter('/N1'); // the census lists the top 20: n0, n1, n10…n19, n2, n20… (one watcher each, then by name)
    assert.ok(paths().length > 0 && paths().every((p) => p.includes('/n1')), paths().join(', '));
    await vscode.commands.executeCommand('zooscope.clearWatchCensusFilter');
    assert.strictEqual(s.census.filter, undefined);
    const target = s.census.getChildren(section('paths')).find((n) => n.kind === 'path' && n.path === `${BASE}/watched/n12`)!;
    const command = item(target).command!;
    await vscode.commands.executeCommand(command.command, ...(command.arguments ?? []));
    await eventually(() => (s.view.selection[0] as PathNode | undefined)?.path === `${BASE}/watched/n12`, 10000, 'revealed');
  });
});
