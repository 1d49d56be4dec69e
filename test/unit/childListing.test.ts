import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { ChildListing, ChildReader } from '../../src/zk/tree/childListing';
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

test('entries are made once per child and kept while it is listed; a reload drops those of names gone', async () => {
  const { reader, release } = gatedReader(['a', 'b', 'c']);
  release();
  let made = 0;
  const listing = new ChildListing(reader, '/p', { pageSize: 10, window: 2 }, (name, path, s) => ({ name, path, stat: s, serial: ++made }));
  await listing.reload();
  const first = await listing.entries();
  assert.equal(made, 3);
  reader.names = ['a', 'c', 'd'];
  await listing.reload();
  assert.equal(listing.entry('b'), undefined, 'b is no longer held');
  const second = await listing.entries();
  assert.deepEqual(second.map((e) => e.name), ['a', 'c', 'd']);
  assert.equal(second[0], first[0]);
  assert.equal(second[1], first[2]);
  assert.equal(made, 4, 'only d was made');
});

test('a reload asking for fresh Stats keeps each entry and gives it the Stat read again before it is shown', async () => {
  const { reader, release } = gatedReader(['a', 'bb']);
  release();
  const listing = new ChildListing(reader, '/p', { pageSize: 10, window: 2 });
  await listing.reload();
  const [a, bb] = await listing.entries();
  assert.equal(bb.stat.czxid, 2n);
  reader.names = ['a', 'bb', 'ccc'];
  const exists = reader.exists;
  reader.exists = async (path) => {
    const s = await exists(path);
    return s && { ...s, version: 7 };
  };
  await listing.reload(true);
  const again = await listing.entries();
  assert.deepEqual(again.map((e) => e.name), ['a', 'bb', 'ccc']);
  assert.equal(again[0], a);
  assert.equal(again[1], bb);
  assert.deepEqual(again.map((e) => e.stat.version), [7, 7, 7]);
});

test('an entry whose node is gone when its Stat is read again is dropped, not shown with its old Stat', async () => {
  const { reader, release } = gatedReader(['a', 'b']);
  release();
  const listing = new ChildListing(reader, '/p', { pageSize: 10, window: 2 });
  await listing.reload();
  await listing.entries();
  await listing.reload(true);
  reader.names = ['a'];
  assert.deepEqual((await listing.entries()).map((e) => e.name), ['a']);
  assert.equal(listing.entry('b'), undefined);
});

/** A reader whose child version the test moves, counting the Stats it is asked for. */
function versionedReader(names: string[]) {
  const reader: ChildReader & { names: string[]; cversion: number; statReads: string[] } = {
    names,
    cversion: 0,
    statReads: [],
    getChildren: async () => ({ children: [...reader.names], stat: { ...stat(1n), cversion: reader.cversion } }),
    exists: async (path) => {
      reader.statReads.push(path);
      return stat(1n);
    },
  };
  return reader;
}

test('reload answers whether the children changed, and reads again only the Stats of names that may be new nodes', async () => {
  const reader = versionedReader(['a', 'b']);
  const listing = new ChildListing(reader, '/p', { pageSize: 10, window: 2 });
  assert.equal(await listing.reload(), true, 'the first listing');
  await listing.entries();
  assert.equal(await listing.reload(), false, 'nothing created or deleted since');
  reader.statReads.length = 0;
  // b deleted, c created: two changes, both seen in the names; a is the node it was.
  reader.names = ['a', 'c'];
  reader.cversion += 2;
  assert.equal(await listing.reload(), true);
  await listing.entries();
  assert.deepEqual(reader.statReads, ['/p/c']);
  // c deleted and made again: the same names, two changes.
  reader.statReads.length = 0;
  reader.cversion += 2;
  assert.equal(await listing.reload(), true);
  await listing.entries();
  assert.deepEqual(reader.statReads.sort(), ['/p/a', '/p/c']);
});
