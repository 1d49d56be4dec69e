// Commands run with extra arguments (as another extension or a command link could run them) get only their target
// and selection: a preset that once skipped a question or named a file is ignored, and the question is asked. Each
// question is answered "cancel" here, so nothing may be written, deleted, saved or imported.
import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TestApi } from '../../../src/vscode/testApi';
import { connectOtherClient, OtherClient } from '../../support/clients/zkClient';
import { existsVia, services, testZk, znodeAt } from './zooscope';

const ID = 'host-presets';
const BASE = `/host-presets-${Date.now().toString(36)}`;

type Asked = 'showOpenDialog' | 'showSaveDialog' | 'showWarningMessage' | 'showInputBox' | 'showQuickPick';

/** Runs `run` with the window's questions answered "cancel"; resolves to the questions asked, in order. */
async function cancellingQuestions(run: () => Thenable<unknown>): Promise<Asked[]> {
  const names: Asked[] = ['showOpenDialog', 'showSaveDialog', 'showWarningMessage', 'showInputBox', 'showQuickPick'];
  const win = vscode.window as unknown as Record<string, unknown>;
  const originals = names.map((name) => win[name]);
  const asked: Asked[] = [];
  for (const name of names) win[name] = () => { asked.push(name); return Promise.resolve(undefined); };
  try {
    await run();
  } finally {
    names.forEach((name, i) => { win[name] = originals[i]; });
  }
  return asked;
}

describe('Commands run with presets', function () {
  let s: TestApi;
  let other: OtherClient;
  let dir: string;

  before(async () => {
    s = await services();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-presets-'));
    other = await connectOtherClient(testZk());
    await other.mkdirp(`${BASE}/app`);
    await other.create(`${BASE}/app/cfg`, 'alpha');
    await other.create(`${BASE}/leaf`, 'keep me');
    await s.commands.addConnection({ id: ID, name: 'Host Presets', connectString: testZk() });
  });

  after(async () => {
    await other?.removeRecursive(BASE).catch(() => undefined);
    other?.close();
    fs.rmSync(dir, { recursive: true, force: true });
    await s.commands.removeConnection(ID, true);
  });

  it('importSubtree with { file, confirmed: true } asks for the file and imports nothing', async () => {
    const file = path.join(dir, 'app.json');
    assert.ok((await s.commands.exportSubtree({ connectionId: ID, path: `${BASE}/app` }, { file }))?.complete);
    const asked = await cancellingQuestions(() => vscode.commands.executeCommand('zooscope.importSubtree', ID,
      { file, targetRoot: `${BASE}/copy`, confirmed: true, applyAcls: true }));
    assert.deepStrictEqual(asked, ['showOpenDialog']);
    assert.strictEqual(await existsVia(other, `${BASE}/copy`), false, 'nothing imported');
  });

  it('exportSubtree with { file } asks where to save and writes no file', async () => {
    const file = path.join(dir, 'chosen-by-caller.json');
    const asked = await cancellingQuestions(() => vscode.commands.executeCommand('zooscope.exportSubtree', { connectionId: ID, path: `${BASE}/app` }, { file }));
    assert.deepStrictEqual(asked, ['showSaveDialog']);
    assert.strictEqual(fs.existsSync(file), false, 'no file written');
  });

  it('delete and deleteRecursive with { confirmed: true } ask first and delete nothing', async () => {
    const leaf = await znodeAt(s, ID, `${BASE}/leaf`);
    assert.deepStrictEqual(await cancellingQuestions(() => vscode.commands.executeCommand('zooscope.delete', leaf, [leaf], { confirmed: true })), ['showWarningMessage']);
    assert.strictEqual(await existsVia(other, `${BASE}/leaf`), true, 'the leaf is still there');
    const app = await znodeAt(s, ID, `${BASE}/app`);
    assert.deepStrictEqual(await cancellingQuestions(() => vscode.commands.executeCommand('zooscope.deleteRecursive', app, undefined, { confirmed: true })), ['showWarningMessage']);
    assert.strictEqual(await existsVia(other, `${BASE}/app/cfg`), true, 'the subtree is still there');
  });

  it('a selection array carrying a preset is only a selection', async () => {
    const leaf = await znodeAt(s, ID, `${BASE}/leaf`);
    const selection = Object.assign([leaf], { confirmed: true, name: 'made', mode: 'persistent', data: '' });
    await cancellingQuestions(() => vscode.commands.executeCommand('zooscope.delete', leaf, selection));
    await cancellingQuestions(() => vscode.commands.executeCommand('zooscope.createNode', { connectionId: ID, path: BASE }, selection));
    assert.strictEqual(await existsVia(other, `${BASE}/leaf`), true, 'the leaf is still there');
    assert.strictEqual(await existsVia(other, `${BASE}/made`), false, 'nothing created');
  });

  it('createNode and editAcl with a preset ask instead of writing', async () => {
    const asked = await cancellingQuestions(() => vscode.commands.executeCommand('zooscope.createNode', { connectionId: ID, path: BASE }, { name: 'made', mode: 'persistent', data: 'x' }));
    assert.deepStrictEqual(asked.slice(0, 1), ['showInputBox']);
    assert.strictEqual(await existsVia(other, `${BASE}/made`), false, 'nothing created');
    await cancellingQuestions(() => vscode.commands.executeCommand('zooscope.editAcl', { connectionId: ID, path: `${BASE}/leaf` }, { acl: ['world:anyone:r'] }));
    const acl = await new Promise<unknown[]>((resolve, reject) => other.client.getACL(`${BASE}/leaf`, (e, list) => (e ? reject(e) : resolve(list))));
    assert.strictEqual(acl.length, 1);
    assert.match(JSON.stringify(acl), /"permission":31/, 'the ACL is still world:anyone:cdrwa');
  });

  it('addConnection with a connection given asks through its form and saves nothing; removeConnection with true asks', async () => {
    const asked = await cancellingQuestions(() => vscode.commands.executeCommand('zooscope.addConnection', { id: 'host-presets-planted', name: 'Planted', connectString: testZk(), password: 'sent-elsewhere' }));
    assert.deepStrictEqual(asked, ['showInputBox']);
    assert.strictEqual(s.store.get('host-presets-planted'), undefined, 'no connection saved');
    assert.deepStrictEqual(await cancellingQuestions(() => vscode.commands.executeCommand('zooscope.removeConnection', ID, true)), ['showWarningMessage']);
    assert.ok(s.store.get(ID), 'the connection is still saved');
  });
});
