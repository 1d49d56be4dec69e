import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { ChildListing, ChildReader } from '../../src/zk/childListing';
import type { ZnodeStat } from '../../src/zk/stat';

const stat = (czxid: bigint): ZnodeStat => ({ czxid, mzxid: czxid, ctime: 1, mtime: 1, version: 0, cversion: 0, aversion: 0,
  ephemeralOwner: 0n, dataLength: 0, numChildren: 0, pzxid: czxid });

/** A reader over a set of names whose exists() answers only when released. */
function gatedReader(names: string[]) {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => { release = resolve; });
  const reader: ChildReader & { names: string[] } = {
    names,
    getChildren: async () => ({ children: [...reader.names], stat: stat(1n) }),
    exists: async (path) => {
      await gate;
      const name = path.slice(path.lastIndexOf('/') + 1);
      return reader.names.includes(name) ? stat(BigInt(name.length)) : undefined;
    },
  };
  return { reader, release };
}

test('a reload while a page\'s Stats are read answers that page, not an empty one', async () => {
  const { reader, release } = gatedReader(['item-3', 'item-1', 'item-2']);
  const listing = new ChildListing(reader, '/wide', { pageSize: 2, window: 1 });
  await listing.reload();
  const pending = listing.entries();
  reader.names = ['item-1', 'item-2', 'item-3', 'item-0'];
  await listing.reload();
  release();
  assert.deepEqual((await pending).map((e) => e.path), ['/wide/item-1', '/wide/item-2']);
  assert.deepEqual((await listing.entries()).map((e) => e.name), ['item-0', 'item-1']);
});

test('names that vanished before their Stat was read are left out of the page', async () => {
  const { reader, release } = gatedReader(['b', 'a', 'c']);
  const listing = new ChildListing(reader, '/', { pageSize: 10, window: 2 });
  await listing.reload();
  const pending = listing.entries();
  reader.names = ['a', 'c'];
  release();
  assert.deepEqual((await pending).map((e) => e.path), ['/a', '/c']);
});

test('once every name is shown (one sorted array kept), filters, counts and reveal still see them all', async () => {
  const { reader, release } = gatedReader(['n-10', 'n-2', 'm-1', 'n-1']);
  release();
  const listing = new ChildListing(reader, '/p', { pageSize: 10, window: 4 });
  await listing.reload();
  assert.deepEqual((await listing.entries()).map((e) => e.name), ['m-1', 'n-1', 'n-2', 'n-10']);
  listing.setFilter({ text: 'n-', test: (name) => name.startsWith('n-') });
  assert.deepEqual((await listing.entries()).map((e) => e.name), ['n-1', 'n-2', 'n-10']);
  assert.equal(listing.total, 4);
  assert.equal(listing.matching, 3);
  listing.setFilter(undefined);
  assert.ok(listing.showName('m-1'));
  assert.deepEqual((await listing.entries()).map((e) => e.name), ['m-1', 'n-1', 'n-2', 'n-10']);
  reader.names = ['n-2', 'z'];
  await listing.reload();
  assert.deepEqual((await listing.entries()).map((e) => e.name), ['n-2', 'z']);
});
