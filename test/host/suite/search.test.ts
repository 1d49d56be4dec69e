// Search… inside a real VS Code against a real ZooKeeper: by name glob, full-path glob, content, regex; matches
// in the Search Results view, each revealing its node in the explorer; a bad pattern told in words.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import type { TestApi } from '../../../src/vscode/testApi';
import type { PathNode } from '../../../src/zk/tree/treeNodes';
import { connectOtherClient, eventually, OtherClient } from '../../support/clients/zkClient';
import { services, testZk } from './zooscope';

const ID = 'host-search';
const BASE = '/host-search';

describe('Search', function () {
  let s: TestApi;
  let other: OtherClient;

  before(async () => {
    s = await services();
    other = await connectOtherClient(testZk());
    await other.removeRecursive(BASE).catch(() => undefined);
    await other.mkdirp(`${BASE}/app/locks`);
    await other.mkdirp(`${BASE}/app/config`);
    await other.mkdirp(`${BASE}/other/config`);
    for (let i = 0; i < 5; i++) await other.create(`${BASE}/app/locks/lock-${i}`, `holder ${i}`);
    await other.create(`${BASE}/app/config/db`, 'url=jdbc:postgresql://db:5432/app\nuser=app');
    await other.create(`${BASE}/other/config/db`, 'url=jdbc:mysql://x');
    await s.commands.addConnection({ id: ID, name: 'Host Search', connectString: testZk() });
  });

  after(async () => {
    await vscode.commands.executeCommand('zooscope.clearSearchResults');
    await other?.removeRecursive(BASE).catch(() => undefined);
    other?.close();
    await s.commands.removeConnection(ID, true);
  });

  it('finds nodes by a name glob under the node it was invoked on', async () => {
    const run = (await s.commands.search({ connectionId: ID, path: BASE }, { path: 'lock-*' }))!;
    assert.deepStrictEqual(run.matches.map((m) => m.path).sort(), [0, 1, 2, 3, 4].map((i) => `${BASE}/app/locks/lock-${i}`));
    assert.strictEqual(run.summary?.matched, 5);
    assert.ok((run.summary?.visited ?? 0) >= 12);
  });

  it('finds by data content (with a snippet), and by a glob on the full path', async () => {
    const byContent = (await s.commands.search({ connectionId: ID, path: BASE }, { content: 'postgresql' }))!;
    assert.deepStrictEqual(byContent.matches.map((m) => m.path), [`${BASE}/app/config/db`]);
    assert.match(byContent.matches[0].content?.snippet ?? '', /jdbc:postgresql/);
    const byPath = (await s.commands.search({ connectionId: ID, path: BASE }, { path: `${BASE}/*/config/db`, matchFullPath: true }))!;
    assert.deepStrictEqual(byPath.matches.map((m) => m.path).sort(), [`${BASE}/app/config/db`, `${BASE}/other/config/db`]);
    const both = (await s.commands.search({ connectionId: ID, path: BASE }, { path: '/^d./', content: '/MYSQL/i' }))!;
    assert.deepStrictEqual(both.matches.map((m) => m.path), [`${BASE}/other/config/db`]);
  });

  it('lists the matches in the Search Results view; selecting one reveals it in the explorer', async () => {
    await s.commands.search({ connectionId: ID, path: BASE }, { content: 'holder 3' });
    const items = s.searchResults.getChildren();
    assert.strictEqual(items.length, 2, 'a summary and one match');
    const summary = s.searchResults.getTreeItem(items[0]);
    assert.match(String(summary.label), /^1 match in \d+ nodes under \/host-search$/);
    const hit = s.searchResults.getTreeItem(items[1]);
    assert.strictEqual(hit.label, 'app/locks/lock-3', 'the path relative to the search root');
    assert.ok(hit.command);
    await vscode.commands.executeCommand(hit.command.command, ...(hit.command.arguments ?? []));
    await eventually(() => (s.view.selection[0] as PathNode | undefined)?.path === `${BASE}/app/locks/lock-3`, 10000, 'revealed');
  });

  it('lists matches by relative path in natural order, a data match with its matched part highlighted', async () => {
    await other.mkdirp(`${BASE}/app/seq`);
    for (const n of [19999, 19997, 2, 19998, 10]) await other.create(`${BASE}/app/seq/item-${n}`, 'x');
    await s.commands.search({ connectionId: ID, path: BASE }, { path: 'item-*' });
    const labels = s.searchResults.getChildren().slice(1).map((item) => s.searchResults.getTreeItem(item).label);
    assert.deepStrictEqual(labels, [2, 10, 19997, 19998, 19999].map((n) => `app/seq/item-${n}`));

    await s.commands.search({ connectionId: ID, path: BASE }, { content: 'jdbc' });
    const matches = s.searchResults.getChildren().slice(1);
    assert.deepStrictEqual(matches.map((item) => s.searchResults.getTreeItem(item).label), ['app/config/db', 'other/config/db']);
    const snippet = s.searchResults.getChildren(matches[0]);
    assert.strictEqual(snippet.length, 1);
    const line = s.searchResults.getTreeItem(snippet[0]).label;
    assert.ok(line && typeof line !== 'string', 'a label with highlights');
    const [[from, to]] = line.highlights ?? [[0, 0]];
    assert.strictEqual(line.label.slice(from, to), 'jdbc');
    assert.strictEqual(line.label, 'url=jdbc:postgresql://db:5432/app user=app');
  });

  it('a bad pattern is told in words and nothing runs', async () => {
    const run = await s.commands.search({ connectionId: ID, path: BASE }, { path: '/([/' });
    assert.strictEqual(run, undefined);
    assert.match(s.shownFailures[s.shownFailures.length - 1].message, /The path pattern is not a valid regular expression/);
  });
});
