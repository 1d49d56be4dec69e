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
