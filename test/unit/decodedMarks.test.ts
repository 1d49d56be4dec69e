// The tree decodes cheaply: only nodes whose path a known system claims are read, at most 50 per parent, never
// large ones, and a node without data is decoded from its Stat alone.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { DecodedMarks } from '../../src/vscode/core/tree/decodedMarks';
import { plainTranslate } from '../../src/zk/decoders/types';
import type { ZkSession } from '../../src/zk/session/session';
import type { ZnodeStat } from '../../src/zk/stat';
import { ConnectionNode, ZnodeNode } from '../../src/zk/tree/treeNodes';
import { ZkError } from '../../src/zk/errors';

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
  const marks = new DecodedMarks(plainTranslate, (_connectionId: string, path: string) => redrawn.push(path));
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
  const marks = new DecodedMarks(plainTranslate, () => undefined);
  for (let i = 0; i < 100; i++) marks.get(node(`/app/items/item-${i}`), session);
  marks.get(node('/brokers/ids/1', { dataLength: 10 * 1024 * 1024 }), session);
  assert.deepEqual(reads, []);
});

test('a node without data is decoded from its Stat alone (Solr live nodes)', () => {
  const { reads, session } = fakeSession();
  const marks = new DecodedMarks(plainTranslate, () => undefined);
  assert.equal(marks.get(node('/live_nodes/10.0.0.5:8983_solr', { dataLength: 0 }), session)?.summary, '10.0.0.5:8983/solr');
  assert.deepEqual(reads, []);
});

test('data read elsewhere is remembered, and a changed node is read again', () => {
  const { reads, session } = fakeSession();
  const marks = new DecodedMarks(plainTranslate, () => undefined);
  marks.remember('c', '/brokers/ids/7', 5n, brokerJson(7));
  assert.equal(marks.get(node('/brokers/ids/7'), session)?.summary, 'broker 7 · k7:9092');
  assert.deepEqual(reads, []);
  marks.get(node('/brokers/ids/7', { mzxid: 9n }), session);
  assert.deepEqual(reads, ['/brokers/ids/7']);
});

// Patroni members: their lag needs the scope's status, read once for all the members of one listing.
function patroniSession(optime: { value: number }) {
  const reads: string[] = [];
  const session = {
    getData: (path: string) => {
      reads.push(path);
      if (path === '/service/pg/status') return Promise.resolve({ data: Buffer.from(JSON.stringify({ optime: optime.value })), stat: stat() });
      if (path === '/service/pg/optime/leader') return Promise.reject(new ZkError('noNode', 'getData', path));
      const name = path.slice(path.lastIndexOf('/') + 1);
      const role = name === 'm0' ? 'master' : 'replica';
      return Promise.resolve({ data: Buffer.from(JSON.stringify({ conn_url: 'postgres://h/postgres', role, state: 'running', xlog_location: 1000 })), stat: stat() });
    },
  } as unknown as ZkSession;
  return { reads, session };
}
const settled = () => new Promise((resolve) => setImmediate(resolve));

test('Patroni members: the status is read once for the whole listing, and the lag is drawn', async () => {
  const optime = { value: 1000 + 16 * 1024 * 1024 };
  const { reads, session } = patroniSession(optime);
  const redrawn: string[] = [];
  const marks = new DecodedMarks(plainTranslate, (_c: string, path: string) => redrawn.push(path));
  const members = Array.from({ length: 5 }, (_, i) => node(`/service/pg/members/m${i}`));
  for (const m of members) marks.get(m, session);
  await settled();
  assert.equal(reads.filter((p) => p === '/service/pg/status').length, 1);
  assert.equal(reads.filter((p) => p === '/service/pg/optime/leader').length, 1);
  assert.equal(reads.length, 7);
  assert.equal(marks.get(members[1], session)?.summary, 'replica · running · lag 16 MiB');
  assert.equal(marks.get(members[1], session)?.fields.find((f) => f.label === 'lag')?.value, String(16 * 1024 * 1024));
  assert.equal(marks.get(members[0], session)?.fields.find((f) => f.label === 'lag'), undefined);
  assert.ok(redrawn.includes('/service/pg/members/m1'));
  // Drawn again without a new listing: nothing read.
  for (const m of members) marks.get(m, session);
  await settled();
  assert.equal(reads.length, 7);
  // Listed again: the status (and the legacy optime) once more, the members not; the new lag is drawn.
  optime.value = 1000 + 2048;
  redrawn.length = 0;
  marks.listed('c', '/service/pg/members');
  for (const m of members) marks.get(m, session);
  await settled();
  assert.deepEqual(reads.slice(7).sort(), ['/service/pg/optime/leader', '/service/pg/status']);
  assert.equal(marks.get(members[2], session)?.summary, 'replica · running · lag 2 KiB');
  assert.ok(redrawn.includes('/service/pg/members/m2'));
});

test('Patroni members: what they share comes out of the same 50 reads, and Show Details\' context is used', async () => {
  const { reads, session } = patroniSession({ value: 5000 });
  const marks = new DecodedMarks(plainTranslate, () => undefined);
  for (let i = 0; i < 80; i++) marks.get(node(`/service/pg/members/m${i}`), session);
  await settled();
  assert.equal(reads.length, 50);
  assert.ok(reads.includes('/service/pg/status'));
  assert.equal(marks.get(node('/service/pg/members/m5'), session)?.summary, 'replica · running · lag 3.9 KiB');
  // Read elsewhere with its context (Show Details, the decoded view): decoded with it, nothing read here.
  const other = new DecodedMarks(plainTranslate, () => undefined);
  const context = new Map([['/service/other/status', Buffer.from('{"optime":2024}')], ['/service/other/optime/leader', null]]);
  const decoded = other.remember('c', '/service/other/members/r', 5n, Buffer.from('{"conn_url":"x","role":"replica","state":"running","xlog_location":1000}'), context);
  assert.equal(decoded?.summary, 'replica · running · lag 1 KiB');
});
