// The tree at a past moment browsed as the live tree is: a node with 100,000 children is listed a page at a time in
// the natural order (the live tree's ChildListing, its page size), Stats as a client is told them, and a path that
// was not there is a NoNode.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { isZkError } from '../../src/zk/errors';
import { ReplayedTree } from '../../src/zk/serverLogs/replayedTree';
import type { PersistedStat } from '../../src/zk/serverLogs/snapshotTypes';
import { PastTree, replayedReader } from '../../src/zk/tree/pastTree';
import { PastRootNode, ZnodeNode } from '../../src/zk/tree/treeNodes';

const WIDE = 100_000;
const stat = (zxid: bigint, cversion = 0): PersistedStat =>
  ({ czxid: zxid, mzxid: zxid, pzxid: zxid, ctime: 1_700_000_000_000, mtime: 1_700_000_000_000, version: 0, cversion, aversion: 0, ephemeralOwner: 0n });

function wideTree(): ReplayedTree {
  const tree = new ReplayedTree();
  const acls = new Map();
  tree.addSnapshotNode({ path: '', data: null, aclRef: -1n, stat: stat(0n, 1) }, acls);
  tree.addSnapshotNode({ path: '/wide', data: Buffer.from('w'), aclRef: -1n, stat: stat(1n, WIDE + 5) }, acls);
  for (let i = WIDE - 1; i >= 0; i--) tree.addSnapshotNode({ path: `/wide/item-${i}`, data: Buffer.from(String(i)), aclRef: -1n, stat: stat(BigInt(i + 2)) }, acls);
  return tree;
}

test('a node with 100,000 children is listed a page at a time, in the natural order, as the live tree lists it', async () => {
  const root = new PastRootNode('past-unit', { connectionId: 'c', connectionName: 'prod', root: '/', zxid: 1n });
  const past = new PastTree(root, wideTree(), () => ({ pageSize: 1000, window: 64 }));
  const top = await past.openListing(root);
  const wide = (await top.entries())[0];
  assert.ok(wide instanceof ZnodeNode && wide.name === 'wide');
  assert.equal(wide.stat.numChildren, WIDE);
  // The cversion a client is told counts changes (creates and deletes), not the creates the server stores.
  assert.equal(wide.stat.cversion, (WIDE + 5) * 2 - WIDE);
  const listing = await past.openListing(wide);
  let page = await listing.entries();
  assert.equal(page.length, 1000);
  assert.ok(listing.hasMore);
  assert.deepEqual(page.slice(0, 3).map((n) => n.name), ['item-0', 'item-1', 'item-2'], 'natural order: item-10 after item-9');
  assert.equal(page[999].name, 'item-999');
  listing.showMore();
  page = await listing.entries();
  assert.equal(page.length, 2000);
  assert.equal((past.nodeAt('/wide/item-1500') as ZnodeNode).stat.dataLength, 4);
  assert.equal((await past.resolve('/wide/item-99999'))?.path, '/wide/item-99999');
});

test('a path the moment did not have is a NoNode, as a server answers it', async () => {
  const reader = replayedReader(wideTree());
  await assert.rejects(reader.getChildren('/gone'), (error) => isZkError(error, 'noNode'));
  assert.equal(await reader.exists('/gone'), undefined);
});
