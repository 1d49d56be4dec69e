import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { ZnodeStat } from '../../src/zk/stat';
import { ConnectionNode, ZnodeNode } from '../../src/zk/tree/treeNodes';
import { znodePresentation } from '../../src/zk/tree/znodePresentation';

const t = (message: string, ...args: (string | number | boolean)[]) => message.replace(/\{(\d+)\}/g, (_, i: string) => String(args[Number(i)]));
const stat = (over: Partial<ZnodeStat> = {}): ZnodeStat => ({ czxid: 5n, mzxid: 5n, ctime: 1, mtime: 1, version: 0, cversion: 0, aversion: 0,
  ephemeralOwner: 0n, dataLength: 0, numChildren: 0, pzxid: 5n, ...over });
const root = new ConnectionNode('c');
const item = (name: string, s: ZnodeStat) => znodePresentation(t, new ZnodeNode('c', `/wide/${name}`, name, s, root), 7n, undefined);

test('siblings that look alike share one frozen icon object (a 100,000-child page holds a handful)', () => {
  const a = item('item-1', stat());
  const b = item('item-2', stat({ czxid: 6n }));
  assert.equal(a.icon, b.icon);
  assert.ok(Object.isFrozen(a.icon));
  assert.deepEqual(a.icon, { id: 'symbol-file' });
  const mine = item('e-1', stat({ ephemeralOwner: 7n }));
  const theirs = item('e-2', stat({ ephemeralOwner: 8n }));
  assert.deepEqual(mine.icon, { id: 'account', color: 'charts.orange' });
  assert.deepEqual(theirs.icon, { id: 'pulse', color: 'charts.orange' });
  assert.notEqual(mine.icon, theirs.icon);
  assert.equal(item('e-3', stat({ ephemeralOwner: 9n })).icon, theirs.icon);
});

test('descriptions and context values are still each item\'s own', () => {
  const small = item('a', stat({ dataLength: 3 }));
  const big = item('b', stat({ dataLength: 2048, numChildren: 2 }));
  assert.equal(small.description, '3 B');
  assert.equal(big.description, '2.0 KB · 2 children');
  assert.equal(small.contextValue, 'znode kind-persistent');
  assert.equal(big.contextValue, 'znode kind-persistent children');
  assert.equal(big.accessibilityLabel, 'b, 2.0 KB · 2 children');
  assert.equal(small.id, 'znode:c:/wide/a');
});

test('a decoded node leads its description with its decoded summary and takes its icon', () => {
  const node = new ZnodeNode('c', '/brokers/ids/1', '1', stat({ dataLength: 120, ephemeralOwner: 9n }), root);
  const p = znodePresentation(t, node, 7n, undefined, { decoded: { summary: 'broker 1 · kafka1:9092', icon: 'server' } });
  assert.equal(p.description, 'broker 1 · kafka1:9092 · 120 B · ephemeral');
  assert.deepEqual(p.icon, { id: 'server', color: 'charts.orange' });
  assert.match(p.contextValue, /\bdecoded\b/);
  const plain = znodePresentation(t, node, 7n, undefined);
  assert.doesNotMatch(plain.contextValue, /\bdecoded\b/);
  assert.equal(plain.description, '120 B · ephemeral');
});
