// The tree at a moment, rebuilt from a real server's snapshots and logs, must be the tree the server showed then:
// the same nodes, data, ACLs and every stat field as a live export taken at that moment.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zookeeper from 'node-zookeeper-client';
import { runZooscope } from '../../src/cli/dispatch';
import type { Output } from '../../src/cli/output';
import { ZkSession } from '../../src/zk/session/session';
import { LogIndex } from '../../src/zk/serverLogs/logIndex';
import { logSource } from '../../src/zk/serverLogs/logSet';
import { treeAtMoment } from '../../src/zk/serverLogs/treeAtMoment';
import { hex } from '../../src/zk/stat';
import { exportSubtree, parseExport, type ExportedNode } from '../../src/zk/transfer';
import { ZnodeWriter } from '../../src/zk/write';
import { HOSTILE_NAMES, RAW_HIDDEN } from '../support/fixtures/hostileFixture';
import { startStandalone, type ZkCluster } from '../support/servers/zkServer';
import { connectOtherClient, eventually, type OtherClient } from '../support/clients/zkClient';

interface Moment { zxid: bigint; time: number; nodes: Map<string, ExportedNode> }

async function zooscopeLog(args: string[]): Promise<{ code: number; out: string; errors: string[] }> {
  let text = '';
  const errors: string[] = [];
  const out = {
    text: (t: string) => { text += `${t}\n`; }, exact: (t: string) => { text += t; }, json: (v: unknown) => { text += `${JSON.stringify(v)}\n`; },
    error: (t: string) => errors.push(t), closed: false,
  } as unknown as Output;
  return { code: await runZooscope(['log', ...args], out, 'test'), out: text, errors };
}

const byPath = (nodes: readonly ExportedNode[]) => new Map(nodes.map((node) => [node.path, node]));

describe('zooscope log --tree-at: the tree at a moment from a real ZooKeeper 3.8.0\'s snapshots and logs', () => {
  let zk: ZkCluster;
  let dataDir: string;
  const moments: Moment[] = [];
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-moment-'));

  before(async () => {
    // snapCount 8: a snapshot every few transactions, so moments fall between snapshots and the fuzzy rule is used.
    zk = await startStandalone({
      extendedTypes: true, adminServer: false,
      systemProperties: { 'znode.container.checkIntervalMs': '200', 'zookeeper.snapCount': '8' },
    });
    dataDir = path.join(zk.members[0].dir, 'data');
    const other = await connectOtherClient(zk.connectString);
    const session = new ZkSession({ connectString: zk.connectString, sessionTimeoutMs: 10000, requestTimeoutMs: 10000 });
    await session.open();
    const writer = new ZnodeWriter(session, { readOnly: false });
    let temp: OtherClient | undefined;
    try {
      await other.create('/marker', '0');
      /** The moment: a write outside /app gives its zxid and time; the live export of /app is the truth for it. */
      const capture = async () => {
        const stat = await new Promise<zookeeper.Stat>((resolve, reject) => other.client.setData('/marker', Buffer.from(String(moments.length)), -1, (e, s) => (e ? reject(e) : resolve(s))));
        let text = '';
        const summary = await exportSubtree(session, '/app', (chunk) => { text += chunk; });
        assert.ok(summary.complete);
        const parsed = parseExport(text);
        assert.ok(parsed.ok);
        const time = Number(stat.mtime.readBigInt64BE(0));
        moments.push({ zxid: BigInt(`0x${stat.mzxid.toString('hex')}`), time, nodes: byPath(parsed.doc.nodes) });
        // The next write must carry a later millisecond, so a time names this moment alone.
        while (Date.now() <= time + 1) await new Promise((resolve) => setTimeout(resolve, 2));
      };
      await other.create('/app', 'root');
      await other.create('/app/cfg', 'a=1');
      await new Promise<void>((resolve, reject) => other.client.create('/app/bin', Buffer.from([0, 0xff, 0x80, 7]), (e) => (e ? reject(e) : resolve())));
      await other.create(`/app/${HOSTILE_NAMES.rtlOverride}`, 'hostile');
      await new Promise<void>((resolve, reject) => other.client.setACL('/app/cfg', [new zookeeper.ACL(zookeeper.Permission.READ | zookeeper.Permission.WRITE, new zookeeper.Id('world', 'anyone'))], -1, (e) => (e ? reject(e) : resolve())));
      temp = await connectOtherClient(zk.connectString);
      await temp.create('/app/eph', 'mine', zookeeper.CreateMode.EPHEMERAL);
      assert.ok((await writer.create({ path: '/app/box', mode: 'container' })).ok);
      assert.ok((await writer.create({ path: '/app/box/item', data: Buffer.from('x') })).ok);
      await capture();

      for (let i = 2; i <= 6; i++) await other.setData('/app/cfg', `a=${i}`);
      await other.remove('/app/bin');
      const commit = (tx: zookeeper.Transaction) => new Promise<void>((resolve) => tx.commit(() => resolve()));
      await commit(other.client.transaction().create('/app/m1', Buffer.from('m')).setData('/app/cfg', Buffer.from('multi'), -1));
      await commit(other.client.transaction().create('/app/never', Buffer.from('x')).check('/app/cfg', 99)); // fails whole
      temp.close();
      temp = undefined;
      await other.remove('/app/box/item');
      await eventually(async () => !(await other.exists('/app/eph')) && !(await other.exists('/app/box')), 20000, 'the ephemeral gone with its session and the container emptied');
      await capture();

      for (let i = 0; i < 12; i++) await other.create(`/app/seq-`, `n${i}`, zookeeper.CreateMode.PERSISTENT_SEQUENTIAL);
      await other.remove('/app/m1');
      await capture();
    } finally {
      temp?.close();
      session.close();
      other.close();
    }
    await zk.members[0].stop();
  });

  after(async () => {
    await zk?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  test('the logs roll and several snapshots lie between the moments', () => {
    const names = fs.readdirSync(path.join(dataDir, 'version-2'));
    assert.ok(names.filter((n) => n.startsWith('snapshot.')).length >= 3, names.join(' '));
  });

  for (const [index, form] of [[0, 'zxid'], [1, 'zxid'], [2, 'zxid'], [1, 'time']] as const) {
    test(`--export at moment ${index + 1} by its ${form}: every node, data, ACL and stat field as the live export then`, async () => {
      const moment = moments[index];
      const file = path.join(work, `moment-${index}-${form}.json`);
      const at = form === 'zxid' ? hex(moment.zxid) : new Date(moment.time).toISOString();
      const run = await zooscopeLog([dataDir, '--tree-at', at, '--path', '/app', '--export', file]);
      assert.equal(run.code, 0, run.errors.join('\n'));
      assert.match(run.errors.at(-1) ?? '', new RegExp(`the tree at zxid ${hex(moment.zxid)} \\(${new Date(moment.time).toISOString().replace(/\./g, '\\.')}\\).*: ${moment.nodes.size} nodes written`));
      assert.equal(fs.statSync(file).mode & 0o777, 0o600);
      const parsed = parseExport(fs.readFileSync(file, 'utf8'));
      assert.ok(parsed.ok);
      assert.equal(parsed.doc.root, '/app');
      assert.equal(parsed.doc.exportedAt, new Date(moment.time).toISOString(), 'the moment\'s own time, even when it is the snapshot\'s');
      assert.equal(parsed.doc.nodes[0].path, '/app', 'parents first');
      assert.deepEqual(byPath(parsed.doc.nodes), moment.nodes);
    });
  }

  test('with the logs\' index a time finds the same moment, and the same tree, as reading every log', async () => {
    const sources = [logSource(path.join(dataDir, 'version-2'))];
    const index = await LogIndex.build(sources);
    for (const moment of moments) {
      const withIndex = await treeAtMoment(sources, { time: moment.time }, { root: '/app', index });
      const reading = await treeAtMoment(sources, { time: moment.time }, { root: '/app' });
      assert.ok(withIndex.ok && reading.ok);
      assert.equal(withIndex.moment.zxid, reading.moment.zxid);
      assert.equal(withIndex.moment.zxid, moment.zxid);
      assert.deepEqual([...withIndex.moment.tree.preOrder('/app')].map((n) => n.path), [...reading.moment.tree.preOrder('/app')].map((n) => n.path));
    }
  });

  test('a node a line for people: hostile names shown as visible text; JSON Lines keep them exact', async () => {
    const moment = moments[0];
    const human = await zooscopeLog([dataDir, '--tree-at', hex(moment.zxid), '--path', '/app']);
    assert.equal(human.code, 0, human.errors.join('\n'));
    const lines = human.out.trimEnd().split('\n');
    assert.equal(lines.length, moment.nodes.size);
    assert.ok(lines.every((line) => line.startsWith('/app')), lines.join('\n'));
    assert.deepEqual(lines.filter((line) => RAW_HIDDEN.test(line)), [], 'no raw bidi control in human lines');
    assert.ok(lines.some((line) => line.includes('invoice-[U+202E]gnp.exe')), lines.join('\n'));
    assert.ok(lines.some((line) => line.startsWith('/app/cfg version 0') && line.includes('"a=1"')), lines.join('\n'));
    const json = await zooscopeLog([dataDir, '--tree-at', hex(moment.zxid), '--path', '/app', '--json']);
    const paths = json.out.trimEnd().split('\n').map((line) => (JSON.parse(line) as ExportedNode).path);
    assert.ok(paths.includes(`/app/${HOSTILE_NAMES.rtlOverride}`));
  });

  test('a moment before the logs, a glob for --path, --export alone: one line each, nothing written', async () => {
    const early = await zooscopeLog([dataDir, '--tree-at', '2001-01-01T00:00:00Z', '--export', path.join(work, 'early.json')]);
    assert.equal(early.code, 1);
    assert.match(early.errors.join('\n'), /the logs begin at .* after 2001-01-01T00:00:00\.000Z/);
    assert.ok(!fs.existsSync(path.join(work, 'early.json')));
    const glob = await zooscopeLog([dataDir, '--tree-at', '0x5', '--path', '/app/*']);
    assert.equal(glob.code, 2);
    assert.match(glob.errors.join('\n'), /no glob/);
    const alone = await zooscopeLog([dataDir, '--export', path.join(work, 'alone.json')]);
    assert.equal(alone.code, 2);
    assert.match(alone.errors.join('\n'), /--export goes with --tree-at/);
  });
});
