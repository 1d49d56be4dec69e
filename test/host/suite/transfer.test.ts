// Export Subtree… and Import… inside a real VS Code against a real ZooKeeper: the file holds the subtree; the
// import's dry run says what it would create, change or leave alone and writes nothing; the confirmed import
// restores exactly that; a file that is not an export is told in words.
import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { TestApi } from '../../../src/vscode/testApi';
import { parseExport } from '../../../src/zk/transfer';
import { connectOtherClient, OtherClient } from '../../support/clients/zkClient';
import { services, testZk } from './zooscope';

const ID = 'host-transfer';
const BASE = '/host-transfer';

describe('Export and import', function () {
  let s: TestApi;
  let other: OtherClient;
  let dir: string;

  const dataOf = (p: string) => new Promise<string | undefined>((resolve, reject) =>
    other.client.getData(p, (e, d) => (e ? ((e as { name?: string }).name === 'NO_NODE' ? resolve(undefined) : reject(e)) : resolve(d ? d.toString() : ''))));

  before(async () => {
    s = await services();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-transfer-'));
    other = await connectOtherClient(testZk());
    await other.removeRecursive(BASE).catch(() => undefined);
    await other.mkdirp(`${BASE}/app/cfg`);
    await other.create(`${BASE}/app/cfg/a`, 'alpha');
    await other.create(`${BASE}/app/cfg/b`, 'beta');
    await other.create(`${BASE}/app/bin`, Buffer.from([0, 255, 1]));
    await s.commands.addConnection({ id: ID, name: 'Host Transfer', connectString: testZk() });
  });

  after(async () => {
    await other?.removeRecursive(BASE).catch(() => undefined);
    other?.close();
    fs.rmSync(dir, { recursive: true, force: true });
    await s.commands.removeConnection(ID, true);
  });

  it('exports a subtree to a JSON file', async () => {
    const file = path.join(dir, 'app.json');
    const summary = (await s.commands.exportSubtree({ connectionId: ID, path: `${BASE}/app` }, { file }))!;
    assert.strictEqual(summary.nodes, 5);
    assert.ok(summary.complete);
    const parsed = parseExport(fs.readFileSync(file, 'utf8'));
    assert.ok(parsed.ok);
    assert.deepStrictEqual(parsed.doc.nodes.map((n) => n.path).sort(), ['', '/bin', '/cfg', '/cfg/a', '/cfg/b'].map((p) => `${BASE}/app${p}`));
  });

  it('the dry run lists what would change and writes nothing; the confirmed import restores it', async () => {
    const file = path.join(dir, 'app.json');
    await other.setData(`${BASE}/app/cfg/a`, 'changed');
    await other.remove(`${BASE}/app/cfg/b`);
    const dry = (await s.commands.importSubtree({ connectionId: ID, path: `${BASE}/app` }, { file, confirmed: false }))!;
    assert.deepStrictEqual(dry.plan.counts, { create: 1, setData: 1, setAcl: 0, delete: 0, unchanged: 3, skip: 0 });
    assert.strictEqual(dry.report, undefined);
    assert.strictEqual(await dataOf(`${BASE}/app/cfg/a`), 'changed', 'nothing written by the dry run');
    assert.strictEqual(await dataOf(`${BASE}/app/cfg/b`), undefined);
    const done = (await s.commands.importSubtree({ connectionId: ID, path: `${BASE}/app` }, { file, confirmed: true }))!;
    assert.deepStrictEqual(done.plan.writes.map((w) => [w.action, w.path]), [['setData', `${BASE}/app/cfg/a`], ['create', `${BASE}/app/cfg/b`]]);
    assert.deepStrictEqual([done.report?.created, done.report?.updated, done.report?.failed], [1, 1, []]);
    assert.strictEqual(await dataOf(`${BASE}/app/cfg/a`), 'alpha');
    assert.strictEqual(await dataOf(`${BASE}/app/cfg/b`), 'beta');
  });

  it('imports into another place (relocated root)', async () => {
    const file = path.join(dir, 'app.json');
    const done = (await s.commands.importSubtree(ID, { file, targetRoot: `${BASE}/copy`, confirmed: true }))!;
    assert.strictEqual(done.report?.created, 5);
    assert.strictEqual(await dataOf(`${BASE}/copy/cfg/b`), 'beta');
  });

  it('re-applies the exported ACLs when asked: the dry run has one ACL change per node, the import sets them', async () => {
    const file = path.join(dir, 'acl.json');
    const doc = {
      format: 'zooscope-export', version: 1, root: '/src', exportedAt: new Date().toISOString(), nodes: [
        { path: '/src', data: '', encoding: 'utf8', acl: [{ scheme: 'world', id: 'anyone', perms: 'cdrwa' }] },
        { path: '/src/ro', data: 'frozen', encoding: 'utf8', acl: [{ scheme: 'world', id: 'anyone', perms: 'r' }] },
      ],
    };
    fs.writeFileSync(file, JSON.stringify(doc));
    const plain = (await s.commands.importSubtree(ID, { file, targetRoot: `${BASE}/acl-plain`, confirmed: false }))!;
    assert.deepStrictEqual(plain.plan.aclChanges, [], 'not asked: no ACL change');
    const done = (await s.commands.importSubtree(ID, { file, targetRoot: `${BASE}/acl`, confirmed: true, applyAcls: true }))!;
    assert.deepStrictEqual(done.plan.aclChanges.map((c) => c.path), [`${BASE}/acl/ro`]);
    assert.strictEqual(done.report?.aclsSet, 1);
    const perms = await new Promise<number[]>((resolve, reject) => other.client.getACL(`${BASE}/acl/ro`, (e, acls) =>
      (e ? reject(e) : resolve(acls.map((a) => (a as unknown as { permission: number }).permission)))));
    assert.deepStrictEqual(perms, [1]);
    assert.strictEqual(await dataOf(`${BASE}/acl/ro`), 'frozen');
  });

  it('a file that is not an export is refused in words', async () => {
    const file = path.join(dir, 'not-export.json');
    fs.writeFileSync(file, '{"hello": 1}');
    const result = await s.commands.importSubtree(ID, { file, confirmed: true });
    assert.strictEqual(result, undefined);
    assert.match(s.shownFailures[s.shownFailures.length - 1].message, /not-export\.json is not a ZooScope export/);
  });
});
