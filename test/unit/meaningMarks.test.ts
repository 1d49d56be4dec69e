// The tree decodes cheaply: only nodes whose path a known system claims are read, at most 50 per parent, never
// large ones, and a node without data is decoded from its Stat alone.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { MeaningMarks } from '../../src/vscode/core/tree/meaningMarks';
import { plainTranslate } from '../../src/zk/meaning/types';
import type { ZkSession } from '../../src/zk/session/session';
import type { ZnodeStat } from '../../src/zk/stat';
import { ConnectionNode, ZnodeNode } from '../../src/zk/tree/treeNodes';

const stat = (over: Partial<ZnodeStat> = {}): ZnodeStat => ({ czxid: 5n, mzxid: 5n, ctime: 1, mtime: 1, version: 0, cversion: 0, aversion: 0,
  ephemeralOwner: 0n, dataLength: 40, numChildren: 0, pzxid: 5n, ...over });
const root = new ConnectionNode('c');
const node = (path: string, over: Partial<ZnodeStat> = {}) => new ZnodeNode('c', path, path.slice(path.lastIndexOf('/') + 1), stat(over), root);
const brokerJson = (id: number) => Buffer.from(JSON.stringify({ host: `k${id}`, port: 9092, version: 4, endpoints: [`PLAINTEXT://k${id}:9092`] }));

function fakeSession() {
  const reads: string[] = [];
  const session = {
    getData: (path: string) => {
      reads.push(path);
      return Promise.resolve({ data: brokerJson(Number(path.slice(path.lastIndexOf('/') + 1))), stat: stat() });
    },
  } as unknown as ZkSession;
  return { reads, session };
}

test('a wide folder of broker ids: at most 50 reads, and the decoded ones are drawn again', async () => {
  const { reads, session } = fakeSession();
  const redrawn: string[] = [];
  const marks = new MeaningMarks(plainTranslate, (_connectionId: string, path: string) => redrawn.push(path));
  const nodes = Array.from({ length: 200 }, (_, i) => node(`/brokers/ids/${i}`));
  for (const n of nodes) assert.equal(marks.get(n, session), undefined);
  assert.equal(reads.length, 50);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(redrawn.length, 50);
  assert.equal(marks.get(nodes[3], session)?.summary, 'broker 3 · k3:9092');
  // Drawn again: no second read.
  for (const n of nodes) marks.get(n, session);
  assert.equal(reads.length, 50);
});

test('nodes no system claims, and large nodes, are never read', () => {
  const { reads, session } = fakeSession();
  const marks = new MeaningMarks(plainTranslate, () => undefined);
  for (let i = 0; i < 100; i++) marks.get(node(`/app/items/item-${i}`), session);
  marks.get(node('/brokers/ids/1', { dataLength: 10 * 1024 * 1024 }), session);
  assert.deepEqual(reads, []);
});

test('a node without data is decoded from its Stat alone (Solr live nodes)', () => {
  const { reads, session } = fakeSession();
  const marks = new MeaningMarks(plainTranslate, () => undefined);
  assert.equal(marks.get(node('/live_nodes/10.0.0.5:8983_solr', { dataLength: 0 }), session)?.summary, '10.0.0.5:8983/solr');
  assert.deepEqual(reads, []);
});

test('data read elsewhere is remembered, and a changed node is read again', () => {
  const { reads, session } = fakeSession();
  const marks = new MeaningMarks(plainTranslate, () => undefined);
  marks.remember('c', '/brokers/ids/7', 5n, brokerJson(7));
  assert.equal(marks.get(node('/brokers/ids/7'), session)?.summary, 'broker 7 · k7:9092');
  assert.deepEqual(reads, []);
  marks.get(node('/brokers/ids/7', { mzxid: 9n }), session);
  assert.deepEqual(reads, ['/brokers/ids/7']);
});
