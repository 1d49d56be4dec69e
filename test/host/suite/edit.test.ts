// The data editor inside a real VS Code against a real ZooKeeper: Open Data (language by content, hex for binary,
// base64/hex reopen), saves at the version read, conflicts refused (provider and VS Code's own save), invalid
// hex/base64, the size limit, read-only connections, and another client's change reaching an open document.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { queryFor, uriPathFor } from '../../../src/vscode/common/znodeUriPath';
import type { TestApi } from '../../../src/vscode/testApi';
import { ZnodeWriter } from '../../../src/zk/write';
import { connectOtherClient, eventually, OtherClient } from '../../support/clients/zkClient';
import { services, testZk } from './zooscope';

const ID = 'host-edit';
const RO = 'host-edit-ro';
const BASE = '/host-edit';

const uri = (path: string, view: 'text' | 'hex' | 'base64' = 'text', id = ID) =>
  vscode.Uri.from({ scheme: 'zooscope', path: uriPathFor(id, path), query: queryFor(view) });

async function dataOf(other: OtherClient, path: string): Promise<{ data: string; version: number }> {
  return new Promise((resolve, reject) => other.client.getData(path, (error, data, stat) =>
    error ? reject(error) : resolve({ data: data ? data.toString('utf8') : '', version: stat.version })));
}

async function rejects(work: Thenable<unknown>, message: RegExp): Promise<void> {
  await assert.rejects(Promise.resolve(work), (error: Error) => {
    assert.match(error.message, message);
    return true;
  });
}

describe('Data editor', function () {
  let s: TestApi;
  let other: OtherClient;

  before(async () => {
    s = await services();
    other = await connectOtherClient(testZk());
    await other.removeRecursive(BASE).catch(() => undefined);
    await other.mkdirp(BASE);
    await other.create(`${BASE}/config`, JSON.stringify({ replicas: 3, flags: { search: true } }, null, 2));
    await other.create(`${BASE}/binary`, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff]));
    await other.create(`${BASE}/we ird?#%name`, 'odd name');
    await other.create(`${BASE}/conflict`, 'v0');
    await other.create(`${BASE}/live`, 'first');
    await other.create(`${BASE}/dirty`, 'mine');
    await other.create(`${BASE}/big`, '');
    await s.commands.addConnection({ id: ID, name: 'Host Edit', connectString: testZk() });
    await s.commands.addConnection({ id: RO, name: 'Host Edit RO', connectString: testZk(), readOnly: true });
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor').then(undefined, () => undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await other?.removeRecursive(BASE).catch(() => undefined);
    other?.close();
    await s.commands.removeConnection(ID, true);
    await s.commands.removeConnection(RO, true);
  });

  it('opens JSON data as a JSON document (by content), binary data as hex', async () => {
    const doc = await vscode.commands.executeCommand<vscode.TextDocument>('zooscope.openData', { connectionId: ID, path: `${BASE}/config` });
    assert.ok(doc);
    assert.strictEqual(doc.languageId, 'json');
    assert.deepStrictEqual(JSON.parse(doc.getText()), { replicas: 3, flags: { search: true } });
    const bin = await vscode.commands.executeCommand<vscode.TextDocument>('zooscope.openData', { connectionId: ID, path: `${BASE}/binary` });
    assert.strictEqual(new URLSearchParams(bin.uri.query).get('view'), 'hex');
    assert.strictEqual(bin.getText(), `00000000: 89 50 4e 47 00 ff${' '.repeat(30)}  |.PNG..|\n`);
  });

  it('reopens any node as base64 and hex, and saving those views writes the bytes they spell', async () => {
    const b64 = await vscode.commands.executeCommand<vscode.TextDocument>('zooscope.openDataAsBase64', { connectionId: ID, path: `${BASE}/binary` });
    assert.strictEqual(b64.getText(), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff]).toString('base64') + '\n');
    await s.znodeFs.readFile(uri(`${BASE}/binary`, 'base64'));
    await s.znodeFs.writeFile(uri(`${BASE}/binary`, 'base64'), Buffer.from('AAEC\n/w==\n'), { create: false, overwrite: true });
    await eventually(async () => (await dataOf(other, `${BASE}/binary`)).version === 1, 5000, 'base64 save');
    const raw = await new Promise<Buffer>((resolve, reject) => other.client.getData(`${BASE}/binary`, (e, d) => (e ? reject(e) : resolve(d))));
    assert.deepStrictEqual([...raw], [0x00, 0x01, 0x02, 0xff]);
    await s.znodeFs.readFile(uri(`${BASE}/binary`, 'hex'));
    await s.znodeFs.writeFile(uri(`${BASE}/binary`, 'hex'), Buffer.from('CA FE\n'), { create: false, overwrite: true });
    const after = await new Promise<Buffer>((resolve, reject) => other.client.getData(`${BASE}/binary`, (e, d) => (e ? reject(e) : resolve(d))));
    assert.deepStrictEqual([...after], [0xca, 0xfe]);
  });

  it('refuses invalid hex and base64 with a sentence naming the path and the position', async () => {
    await s.znodeFs.readFile(uri(`${BASE}/binary`, 'hex'));
    await rejects(s.znodeFs.writeFile(uri(`${BASE}/binary`, 'hex'), Buffer.from('ca fe\nzz'), { create: false, overwrite: true }),
      new RegExp(`${BASE}/binary was not saved: "z" at line 2, column 1 is not a hex digit`));
    await rejects(s.znodeFs.writeFile(uri(`${BASE}/binary`, 'base64'), Buffer.from('abc'), { create: false, overwrite: true }), /groups of 4/);
    const raw = await new Promise<Buffer>((resolve, reject) => other.client.getData(`${BASE}/binary`, (e, d) => (e ? reject(e) : resolve(d))));
    assert.deepStrictEqual([...raw], [0xca, 0xfe], 'nothing was written');
  });

  it('opens and saves a node whose name needs URI escaping', async () => {
    const doc = await vscode.commands.executeCommand<vscode.TextDocument>('zooscope.openData', { connectionId: ID, path: `${BASE}/we ird?#%name` });
    assert.strictEqual(doc.getText(), 'odd name');
    const again = vscode.Uri.parse(doc.uri.toString());
    assert.strictEqual(again.path, doc.uri.path, 'the URI survives printing and parsing');
    await s.znodeFs.writeFile(again, Buffer.from('renamed?'), { create: false, overwrite: true });
    assert.strictEqual((await dataOf(other, `${BASE}/we ird?#%name`)).data, 'renamed?');
  });

  it('saves at the version read: a change by someone else meanwhile is refused, then written only when chosen', async () => {
    const target = uri(`${BASE}/conflict`);
    await s.znodeFs.readFile(target);
    const read = await s.znodeFs.stat(target);
    // A later millisecond than the read, so VS Code's own mtime check can see the change.
    await eventually(() => Date.now() > read.mtime + 2, 1000, 'clock moves on');
    await other.setData(`${BASE}/conflict`, 'theirs');
    await rejects(s.znodeFs.writeFile(target, Buffer.from('mine'), { create: false, overwrite: true }), /changed by another client since version 0/);
    assert.strictEqual((await dataOf(other, `${BASE}/conflict`)).data, 'theirs', 'their change survives');
    // A newer mtime seen by stat() is no licence to overwrite (that is what VS Code's own check relied on).
    const seen = await s.znodeFs.stat(target);
    assert.ok(seen.mtime > read.mtime);
    await rejects(s.znodeFs.writeFile(target, Buffer.from('mine'), { create: false, overwrite: true }), /changed by another client/);
    assert.strictEqual((await dataOf(other, `${BASE}/conflict`)).data, 'theirs', 'still theirs');
    // Only the user's Overwrite lets the next save write, at the version the server has now.
    assert.strictEqual(await s.znodeFs.allowOverwrite(target), 1);
    await s.znodeFs.writeFile(target, Buffer.from('mine'), { create: false, overwrite: true });
    assert.deepStrictEqual(await dataOf(other, `${BASE}/conflict`), { data: 'mine', version: 2 });
  });

  it('VS Code\'s own save writes at the version read and refuses when the node changed', async () => {
    const doc = await vscode.commands.executeCommand<vscode.TextDocument>('zooscope.openData', { connectionId: ID, path: `${BASE}/dirty` });
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), 'saved once');
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(await doc.save(), 'the first save goes through');
    assert.deepStrictEqual(await dataOf(other, `${BASE}/dirty`), { data: 'saved once', version: 1 });
    const edit2 = new vscode.WorkspaceEdit();
    edit2.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), 'second edit');
    assert.ok(await vscode.workspace.applyEdit(edit2));
    const stat = await s.znodeFs.stat(doc.uri);
    await eventually(() => Date.now() > stat.mtime + 2, 1000, 'clock moves on');
    await other.setData(`${BASE}/dirty`, 'someone else');
    assert.strictEqual(await doc.save(), false, 'the save is refused');
    assert.strictEqual((await dataOf(other, `${BASE}/dirty`)).data, 'someone else');
    assert.ok(doc.isDirty, 'the edit is still in the editor');
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('a change of the same size by another client is never overwritten: the save names the node and offers Compare / Overwrite', async () => {
    await other.create(`${BASE}/replicas`, '{"replicas": 3}');
    const doc = await vscode.commands.executeCommand<vscode.TextDocument>('zooscope.openData', { connectionId: ID, path: `${BASE}/replicas` });
    await vscode.window.showTextDocument(doc);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), '{"replicas": 4}');
    assert.ok(await vscode.workspace.applyEdit(edit));
    const stat = await s.znodeFs.stat(doc.uri);
    await eventually(() => Date.now() > stat.mtime + 2, 1000, 'clock moves on');
    await other.setData(`${BASE}/replicas`, '{"replicas": 9}');
    const shownBefore = s.shownMessages.at(-1)?.seq ?? 0;
    assert.strictEqual(await doc.save(), false, 'the save is refused');
    assert.deepStrictEqual(await dataOf(other, `${BASE}/replicas`), { data: '{"replicas": 9}', version: 1 });
    assert.ok(doc.isDirty, 'the edit is still in the editor');
    const question = s.shownMessages.filter((m) => m.seq > shownBefore).find((m) => m.buttons.includes('Overwrite'));
    assert.ok(question, 'Compare / Overwrite offered');
    assert.deepStrictEqual(question.buttons, ['Compare', 'Overwrite']);
    assert.match(question.message, new RegExp(`${BASE}/replicas was changed by another client since version 0`));
    // Compare opens the server's data beside the edit.
    assert.strictEqual(await vscode.commands.executeCommand('zooscope.compareWithServer', doc.uri), true);
    await eventually(() => vscode.workspace.textDocuments.some((d) => d.uri.scheme === 'zooscope-server' && d.getText() === '{"replicas": 9}'), 10000, 'the server copy');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    // Overwrite writes the edit over version 1, and only then.
    assert.strictEqual(await vscode.commands.executeCommand('zooscope.saveOverwriting', doc.uri), true);
    assert.deepStrictEqual(await dataOf(other, `${BASE}/replicas`), { data: '{"replicas": 4}', version: 2 });
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('an open, unmodified document follows another client\'s changes (watch → file change → reload)', async () => {
    const doc = await vscode.commands.executeCommand<vscode.TextDocument>('zooscope.openData', { connectionId: ID, path: `${BASE}/live` });
    assert.strictEqual(doc.getText(), 'first');
    const shown = await s.tree.treeFor(ID)?.resolve(`${BASE}/live`);
    assert.ok(shown?.kind === 'znode');
    const events: vscode.Uri[] = [];
    const sub = s.znodeFs.onDidChangeFile((changes) => events.push(...changes.map((c) => c.uri)));
    try {
      await eventually(() => s.znodeFs.watches.paths.includes(`${BASE}/live`), 5000, 'watch while open');
      await other.setData(`${BASE}/live`, 'second');
      await eventually(() => events.some((u) => u.toString() === doc.uri.toString()), 5000, 'change event');
      await eventually(() => doc.getText() === 'second', 10000, 'document reloaded');
      await eventually(() => shown.stat.dataLength === 'second'.length, 5000, 'the explorer shows the new size');
    } finally {
      sub.dispose();
    }
  });

  it('refuses data over the server\'s limit before sending, saying the limit', async () => {
    const session = s.connections.get(ID)?.session;
    assert.ok(session);
    const limit = new ZnodeWriter(session, { readOnly: false }).maxDataBytes(`${BASE}/big`);
    const target = uri(`${BASE}/big`);
    await s.znodeFs.readFile(target);
    await rejects(s.znodeFs.writeFile(target, Buffer.alloc(limit + 1, 0x61), { create: false, overwrite: true }),
      new RegExp(`${BASE}/big is ${limit + 1} bytes; the server accepts at most ${limit} bytes`));
    assert.ok(s.connections.get(ID)?.session.state === 'connected', 'the connection was not dropped');
    await s.znodeFs.writeFile(target, Buffer.alloc(limit, 0x61), { create: false, overwrite: true });
    assert.strictEqual((await dataOf(other, `${BASE}/big`)).data.length, limit);
  });

  it('read-only connections open read-only documents and refuse every write with the reason', async () => {
    const target = uri(`${BASE}/config`, 'text', RO);
    const stat = await s.znodeFs.stat(target);
    assert.strictEqual(stat.permissions, vscode.FilePermission.Readonly);
    assert.strictEqual((await s.znodeFs.stat(uri(`${BASE}/config`))).permissions, undefined, 'writable elsewhere');
    await s.znodeFs.readFile(target);
    await rejects(s.znodeFs.writeFile(target, Buffer.from('{}'), { create: false, overwrite: true }), /read-only/);
    assert.strictEqual((await dataOf(other, `${BASE}/config`)).version, 0);
  });
});
