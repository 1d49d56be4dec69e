import * as assert from 'node:assert';
import { test } from 'node:test';
import { HeldWatches } from '../../src/zk/session/heldWatches';

function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void; reject: (e: unknown) => void } {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => { resolve = res; reject = rej; });
  return { promise, resolve, reject };
}

test('a key is armed once, however often it is held', async () => {
  const watches = new HeldWatches();
  let arms = 0;
  await Promise.all([1, 2, 3].map(() => watches.hold('/a', async () => { arms++; return () => undefined; })));
  assert.strictEqual(arms, 1);
  assert.deepStrictEqual(watches.keys(), ['/a']);
});

test('a release before the watch is armed still stops it once armed', async () => {
  const watches = new HeldWatches();
  const arming = deferred<() => void>();
  let stopped = 0;
  const held = watches.hold('/a', () => arming.promise);
  watches.release('/a');
  assert.strictEqual(watches.has('/a'), false);
  arming.resolve(() => { stopped++; });
  await held;
  await new Promise((r) => setImmediate(r));
  assert.strictEqual(stopped, 1);
});

test('a failed arm is reported and frees its key for the next hold', async () => {
  const watches = new HeldWatches();
  const errors: unknown[] = [];
  await watches.hold('/a', () => Promise.reject(new Error('noNode')), (e) => errors.push(e));
  assert.strictEqual(errors.length, 1);
  assert.strictEqual(watches.has('/a'), false);
  let armed = false;
  await watches.hold('/a', async () => { armed = true; return () => undefined; });
  assert.ok(armed);
});

test('releaseAll with a filter stops only the matching keys', async () => {
  const watches = new HeldWatches();
  const stopped: string[] = [];
  for (const key of ['/a', '/a/b', '/c']) await watches.hold(key, async () => () => { stopped.push(key); });
  watches.releaseAll((k) => k.startsWith('/a'));
  await new Promise((r) => setImmediate(r));
  assert.deepStrictEqual(stopped.sort(), ['/a', '/a/b']);
  assert.deepStrictEqual(watches.keys(), ['/c']);
});
