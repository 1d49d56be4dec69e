// Creating, deleting and protecting znodes through the commands, inside a real VS Code against real ZooKeeper
// servers: every mode (container/TTL remembered), names checked, parents created, the TTL refusal of a server
// without extended types, version-checked deletes, the recursive delete's preview numbers, protected paths, ACL
// editing (tooltip and details), and a NoAuth failure offering "Add Credentials…" that then works.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import * as zookeeper from 'node-zookeeper-client';
import { queryFor, uriPathFor } from '../../../src/vscode/common/znodeUriPath';
import type { TestApi } from '../../../src/vscode/testApi';
import type { PathNode, ZnodeNode } from '../../../src/zk/tree/treeNodes';
import { digestId } from '../../../src/zk/write';
import { startStandalone, ZkCluster } from '../../support/servers/zkServer';
import { connectOtherClient, eventually, OtherClient } from '../../support/clients/zkClient';
import { existsVia, services, testZk, znodeAt } from './zooscope';

const ID = 'host-write';
const ACL_ID = 'host-write-acl';
const BASE = '/host-write';

describe('Znode writes', function () {
  this.timeout(90000);
  let s: TestApi;
  let other: OtherClient;

  const node = (path: string, id = ID): Promise<ZnodeNode> => znodeAt(s, id, path);
  const exists = (path: string) => existsVia(other, path);
  const lastFailure = () => s.shownFailures[s.shownFailures.length - 1];

  before(async () => {
    s = await services();
    other = await connectOtherClient(testZk());
    await other.removeRecursive(BASE).catch(() => undefined);
    await other.mkdirp(BASE);
    await s.commands.addConnection({ id: ID, name: 'Host Write', connectString: testZk() });
  });

  after(async () => {
    await other?.removeRecursive(BASE).catch(() => undefined);
    other?.close();
    await s.commands.removeConnection(ID, true);
    await s.commands.removeConnection(ACL_ID, true);
  });

  it('creates a node with data under the node it was invoked on, then reveals and selects it', async () => {
    const created = (await s.commands.createNode(await node(BASE), { name: 'plain', mode: 'persistent', data: 'hello' }))!;
    assert.strictEqual(created, `${BASE}/plain`);
    const data = await new Promise<string>((resolve, reject) => other.client.getData(created, (e, d) => (e ? reject(e) : resolve(d.toString()))));
    assert.strictEqual(data, 'hello');
    await eventually(() => (s.view.selection[0] as PathNode | undefined)?.path === created, 5000, 'selected in the explorer');
  });

  it('sequential nodes come back with their real name', async () => {
    const created = (await s.commands.createNode({ connectionId: ID, path: BASE }, { name: 'job-', mode: 'persistentSequential', data: '' }))!;
    assert.match(created, new RegExp(`^${BASE}/job-\\d{10}$`));
    assert.ok(await exists(created));
  });

  it('ephemeral nodes belong to this window\'s session and show as yours', async () => {
    const created = (await s.commands.createNode({ connectionId: ID, path: BASE }, { name: 'mine', mode: 'ephemeral', data: '' }))!;
    const item = s.tree.getTreeItem(await node(created));
    assert.match(String(item.contextValue), /\bkind-ephemeral\b.*\byours\b/);
  });

  it('container and TTL nodes keep their kind in the tree (remembered: 3.8 reports them as persistent)', async () => {
    const container = (await s.commands.createNode({ connectionId: ID, path: BASE }, { name: 'box', mode: 'container', data: '' }))!;
    const ttl = (await s.commands.createNode({ connectionId: ID, path: BASE }, { name: 'short', mode: 'ttl', ttl: '10m', data: '' }))!;
    const boxItem = s.tree.getTreeItem(await node(container));
    assert.match(String(boxItem.contextValue), /\bkind-container\b/);
    assert.match(String(boxItem.description), /container/);
    const ttlItem = s.tree.getTreeItem(await node(ttl));
    assert.match(String(ttlItem.contextValue), /\bkind-ttl\b/);
    assert.match(String(ttlItem.description), /TTL/);
  });

  it('from the palette: a full path, creating the missing parents', async () => {
    const created = (await s.commands.createNode(ID, { path: `${BASE}/p/q/r`, createParents: true, mode: 'persistent', data: 'deep' }))!;
    assert.strictEqual(created, `${BASE}/p/q/r`);
    assert.ok(await exists(`${BASE}/p/q`));
  });

  it('a bad name is refused with a precise sentence and nothing is created', async () => {
    const created = await s.commands.createNode({ connectionId: ID, path: BASE }, { name: 'a/b', mode: 'persistent', data: '' });
    assert.strictEqual(created, undefined);
    assert.match(lastFailure().message, /is not a valid node path: The character "\/" at position 2/);
    assert.ok(!(await exists(`${BASE}/a`)));
  });

  it('a TTL node on a server without extended types: the user is told why', async function () {
    const plain: ZkCluster = await startStandalone({ extendedTypes: false, adminServer: false });
    const id = 'host-write-plain';
    try {
      await s.commands.addConnection({ id, name: 'Plain server', connectString: plain.connectString });
      const created = await s.commands.createNode(s.tree.rootFor(id), { name: 'ttl', mode: 'ttl', ttl: '30s', data: '' });
      assert.strictEqual(created, undefined);
      assert.match(lastFailure().message, /does not allow TTL nodes \(\/ttl\): it needs zookeeper\.extendedTypesEnabled=true/);
    } finally {
      await s.commands.removeConnection(id, true);
      await plain.stop();
    }
  });

  it('Delete removes a node at the version the explorer showed; a node changed meanwhile is kept', async () => {
    await other.create(`${BASE}/gone`, 'x');
    await other.create(`${BASE}/changed`, 'x');
    const gone = await node(`${BASE}/gone`);
    await s.commands.delete(gone, [gone], { confirmed: true });
    assert.ok(!(await exists(`${BASE}/gone`)));
    const changed = await node(`${BASE}/changed`);
    const seen = changed.stat;
    await other.setData(`${BASE}/changed`, 'y');
    changed.stat = seen; // what the user looked at when choosing Delete
    await s.commands.delete(changed, [changed], { confirmed: true });
    assert.ok(await exists(`${BASE}/changed`), 'not deleted');
    assert.match(lastFailure().message, new RegExp(`${BASE}/changed was changed by someone else meanwhile`));
  });

  it('Delete on several selected nodes deletes them all', async () => {
    await other.create(`${BASE}/m1`, '');
    await other.create(`${BASE}/m2`, '');
    const picked = [await node(`${BASE}/m1`), await node(`${BASE}/m2`)];
    const report = (await s.commands.delete(picked[0], picked, { confirmed: true })) as { deleted: string[] };
    assert.deepStrictEqual([...report.deleted].sort(), [`${BASE}/m1`, `${BASE}/m2`]);
    assert.ok(!(await exists(`${BASE}/m1`)) && !(await exists(`${BASE}/m2`)));
  });

  it('Delete Recursively previews the count, samples and other sessions\' ephemeral nodes with owners, then deletes exactly that', async () => {
    const root = `${BASE}/tree`;
    await other.mkdirp(`${root}/c1/g1`);
    await other.mkdirp(`${root}/c1/g2`);
    await other.mkdirp(`${root}/c2`);
    await other.mkdirp(`${root}/c3`);
    const lock = await other.create(`${root}/c2/lock-`, 'holder', zookeeper.CreateMode.EPHEMERAL_SEQUENTIAL);
    await s.commands.createNode({ connectionId: ID, path: `${root}/c3` }, { name: 'mine', mode: 'ephemeral', data: '' });
    const owner = '0x' + other.client.getSessionId().readBigUInt64BE(0).toString(16);
    const treeNode = await node(root);
    const previewOnly = (await s.commands.deleteRecursive(treeNode, undefined, { confirmed: false }))!;
    assert.strictEqual(previewOnly.plan?.count, 8);
    assert.strictEqual(previewOnly.plan?.foreignEphemeralCount, 1);
    assert.strictEqual(previewOnly.plan?.ownEphemeralCount, 1);
    assert.match(previewOnly.preview?.message ?? '', new RegExp(`Delete ${root} and everything below it: 8 nodes\\?`));
    const detail = previewOnly.preview?.detail.join('\n') ?? '';
    assert.ok(detail.includes(`${lock} (owner session ${owner})`), detail);
    assert.ok(detail.includes(`${root}/c1`), 'samples');
    assert.ok(await exists(root), 'nothing deleted without confirmation');
    const done = (await s.commands.deleteRecursive(treeNode, undefined, { confirmed: true, batchSize: 3 }))!;
    assert.strictEqual(done.report?.deleted.length, 8);
    assert.strictEqual(done.report?.notDeleted.length, 0);
    assert.ok(!(await exists(root)));
  });

  it('/zookeeper is marked protected and never deleted', async () => {
    const zk = await node('/zookeeper');
    assert.match(String(s.tree.getTreeItem(zk).contextValue), /\bprotected\b/);
    const result = await s.commands.delete(zk, [zk], { confirmed: true });
    assert.strictEqual(result, undefined);
    assert.match(lastFailure().message, /\/zookeeper is protected/);
    assert.ok(await exists('/zookeeper/config'));
  });

  it('Edit ACL writes at the aversion read, refuses a stale one, and the ACL shows in the tooltip and the details', async () => {
    const path = `${BASE}/guarded`;
    await other.create(path, 'secret');
    // Everyone may read and administer (so a stale aversion is what refuses below), only alice may write.
    const acl = ['world:anyone:ra', `digest:${digestId('alice', 'pw')}:cdrwa`];
    assert.strictEqual(await s.commands.editAcl({ connectionId: ID, path }, { acl }), true);
    const read = await new Promise<zookeeper.ACL[]>((resolve, reject) => other.client.getACL(path, (e, a) => (e ? reject(e) : resolve(a))));
    assert.deepStrictEqual(read.map((a) => `${a.id.scheme}:${a.id.id}:${(a as unknown as { permission: number }).permission}`).sort(),
      [`digest:${digestId('alice', 'pw')}:31`, 'world:anyone:17']);
    assert.strictEqual(await s.commands.editAcl({ connectionId: ID, path }, { acl: ['world:anyone:cdrwa'], aversion: 0 }), false);
    assert.match(lastFailure().message, new RegExp(`${path} was changed by someone else meanwhile`));
    assert.ok(lastFailure().buttons.includes('Edit Again'));

    const guarded = await node(path);
    const item = await s.tree.resolveTreeItem(s.tree.getTreeItem(guarded), guarded);
    const tooltip = (item?.tooltip as vscode.MarkdownString).value;
    assert.match(tooltip, /\*\*ACL\*\*/);
    assert.match(tooltip, /world:anyone {2}ra/);
    await vscode.commands.executeCommand('zooscope.showDetails', guarded);
    const details = vscode.window.activeTextEditor?.document.getText() ?? '';
    assert.match(details, /ACL/);
    assert.match(details, /digest:alice:\S+ {2}cdrwa/);
  });

  it('a NoAuth failure says which permission is missing and offers Add Credentials…, which then makes the write work', async () => {
    await s.commands.addConnection({ id: ACL_ID, name: 'Host Write ACL', connectString: testZk() });
    const path = `${BASE}/guarded`;
    const uri = vscode.Uri.from({ scheme: 'zooscope', path: uriPathFor(ACL_ID, path), query: queryFor('text') });
    await s.znodeFs.readFile(uri);
    await assert.rejects(Promise.resolve(s.znodeFs.writeFile(uri, Buffer.from('changed'), { create: false, overwrite: true })),
      (e: Error) => /Not authorized to setData .*guarded: the ACL of .*guarded does not grant write \(w\)/.test(e.message));
    await eventually(() => lastFailure()?.buttons.includes('Add Credentials…') === true, 5000, 'the message offers Add Credentials…');
    const identities = (await s.commands.addCredentials(ACL_ID, { user: 'alice', password: 'pw' }))!;
    assert.ok(identities?.includes('digest:alice'), String(identities));
    await s.znodeFs.writeFile(uri, Buffer.from('changed'), { create: false, overwrite: true });
    const data = await new Promise<string>((resolve, reject) => other.client.getData(path, (e, d) => (e ? reject(e) : resolve(d.toString()))));
    assert.strictEqual(data, 'changed');
  });
});
