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

/** A reader over a set of names whose Stats carry a per-name serial (czxid), bumped when a name is made again. */
function followedReader(names: string[]) {
  const serial = new Map<string, bigint>();
  let next = 1n;
  const reader: ChildReader & { names: Set<string>; make(name: string): void; remove(name: string): void } = {
    names: new Set(names),
    make(name) {
      reader.names.add(name);
      serial.set(name, next++);
    },
    remove(name) {
      reader.names.delete(name);
    },
    getChildren: async () => ({ children: [...reader.names], stat: stat(0n) }),
    exists: async (path) => {
      const name = path.slice(path.lastIndexOf('/') + 1);
      return reader.names.has(name) ? stat(serial.get(name) ?? 0n) : undefined;
    },
  };
  for (const name of names) reader.make(name);
  return reader;
}

/** A fixed pseudo-random sequence, so a failure shows the same steps again. */
function seeded(seed: number) {
  let state = seed >>> 0;
  return (below: number) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state % below;
  };
}

/** What a fresh listing of the same names shows: the page, the counts and whether a "more" row follows. */
async function freshView(reader: ChildReader, options: { pageSize: number; pages: number; filter?: (name: string) => boolean }) {
  const fresh = new ChildListing(reader, '/q', { pageSize: options.pageSize, window: 8 });
  await fresh.reload();
  if (options.filter) fresh.setFilter({ text: 'f', test: options.filter });
  for (let i = 1; i < options.pages; i++) fresh.showMore();
  return view(fresh);
}

const view = async (listing: ChildListing) => ({
  page: (await listing.entries()).map((e) => `${e.name}@${e.stat.czxid}`),
  total: listing.total,
  matching: listing.matching,
  hasMore: listing.hasMore,
});

for (const { label, start, pageSize, pages, filter, peekEvery } of [
  { label: 'a page of a wide node', start: 300, pageSize: 20, pages: 1, filter: undefined, peekEvery: 1 },
  { label: 'every name shown (one sorted array)', start: 15, pageSize: 50, pages: 1, filter: undefined, peekEvery: 1 },
  { label: 'a filter, two pages shown', start: 300, pageSize: 10, pages: 2, filter: (name: string) => name.includes('1'), peekEvery: 1 },
  { label: 'changes between looks at the page', start: 200, pageSize: 15, pages: 1, filter: undefined, peekEvery: 7 },
]) {
  test(`single creates and deletes keep the listing equal to a fresh one: ${label}`, async () => {
    const random = seeded(start + pageSize);
    // Plain names and sequential ones (which sort after every plain one, by their number).
    const nameOf = (n: number) => (n % 3 === 0 ? `lock-${String(n).padStart(10, '0')}` : `item-${n}`);
    const reader = followedReader(Array.from({ length: start }, (_, i) => nameOf(i)));
    const listing = new ChildListing(reader, '/q', { pageSize, window: 8 });
    await listing.reload();
    if (filter) listing.setFilter({ text: 'f', test: filter });
    for (let i = 1; i < pages; i++) listing.showMore();
    await listing.entries();
    for (let step = 1; step <= 400; step++) {
      const listed = [...reader.names];
      const kind = random(3);
      if (kind === 0 && listed.length > 0) {
        const name = listed[random(listed.length)];
        reader.remove(name);
        assert.equal(listing.childDeleted(name), true, `${name} was listed`);
      } else if (kind === 1 && listed.length > 0) {
        // Deleted and made again between two looks: the tree tells it as `remade`.
        const name = listed[random(listed.length)];
        reader.make(name);
        listing.childCreated(name, true);
      } else {
        // A new name, or the event of a create the listing has seen already.
        const name = nameOf(random(start * 2));
        const isNew = !reader.names.has(name);
        if (isNew) reader.make(name);
        assert.equal(listing.childCreated(name), isNew, name);
      }
      if (step % peekEvery === 0) {
        assert.deepEqual(await view(listing), await freshView(reader, { pageSize, pages, filter }), `after step ${step}`);
      }
    }
    assert.deepEqual(await view(listing), await freshView(reader, { pageSize, pages, filter }));
  });
}

test('events repeated or for names never listed change nothing; before the first listing they are ignored', async () => {
  const reader = followedReader(['a', 'b', 'c']);
  const listing = new ChildListing(reader, '/q', { pageSize: 10, window: 2 });
  assert.equal(listing.childCreated('d'), false, 'not listed yet: the listing to come has it');
  await listing.reload();
  assert.deepEqual((await listing.entries()).map((e) => e.name), ['a', 'b', 'c']);
  const revision = listing.revision;
  assert.equal(listing.childDeleted('zz'), false);
  assert.equal(listing.childCreated('d'), true);
  assert.equal(listing.childCreated('d'), false, 'listed already');
  assert.equal(listing.childCreated('d', true), false, 'made again, but it has no entry yet: nothing to read again');
  assert.equal(listing.childCreated('a'), false, 'a was listed after it was created');
  assert.equal(listing.childDeleted('b'), true);
  assert.equal(listing.childDeleted('b'), false);
  assert.equal(listing.revision, revision + 2, 'only the two real changes count');
  reader.make('d');
  reader.remove('b');
  assert.deepEqual((await listing.entries()).map((e) => `${e.name}@${e.stat.czxid}`), ['a@1', 'c@3', 'd@4']);
  assert.equal(listing.total, 3);
  reader.make('a');
  assert.equal(listing.childCreated('a', true), true, 'a was deleted and made again');
  assert.deepEqual((await listing.entries()).map((e) => `${e.name}@${e.stat.czxid}`), ['a@5', 'c@3', 'd@4']);
});

test('a change outside the shown page moves the counts and the "more" row; one inside brings the next name in', async () => {
  const names = Array.from({ length: 30 }, (_, i) => `n-${i + 1}`);
  const reader = followedReader(names);
  const listing = new ChildListing(reader, '/q', { pageSize: 10, window: 4 });
  await listing.reload();
  assert.deepEqual((await listing.entries()).map((e) => e.name), names.slice(0, 10));
  const statReads: string[] = [];
  const exists = reader.exists;
  reader.exists = async (path) => {
    statReads.push(path);
    return exists(path);
  };
  reader.make('n-99');
  listing.childCreated('n-99');
  assert.equal(listing.total, 31);
  assert.deepEqual((await listing.entries()).map((e) => e.name), names.slice(0, 10), 'n-99 sorts after the page');
  assert.deepEqual(statReads, [], 'no Stat read for a name outside the page');
  reader.remove('n-3');
  listing.childDeleted('n-3');
  assert.deepEqual((await listing.entries()).map((e) => e.name), [...names.slice(0, 2), ...names.slice(3, 11)]);
  assert.deepEqual(statReads, ['/q/n-11'], 'only the name that moved into the page');
  for (const name of names.slice(11)) {
    reader.remove(name);
    listing.childDeleted(name);
  }
  assert.equal(listing.hasMore, true, 'n-99 is still past the page');
  reader.remove('n-99');
  listing.childDeleted('n-99');
  assert.equal(listing.hasMore, false);
  assert.equal(listing.total, 10);
});
