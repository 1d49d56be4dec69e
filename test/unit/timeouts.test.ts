import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { ZkError } from '../../src/zk/errors';
import { afterDelay, mapBounded, withTimeout } from '../../src/zk/timeouts';

describe('withTimeout', () => {
  test('passes the value through when the promise settles in time', async () => {
    assert.equal(await withTimeout(Promise.resolve(42), 1000, 'getData', '/a'), 42);
  });

  test('passes the promise\'s own error through unchanged', async () => {
    const own = new Error('own');
    await assert.rejects(withTimeout(Promise.reject(own), 1000, 'getData', '/a'), (e) => e === own);
  });

  test('rejects with clientTimeout naming the operation and path when the promise is late', async () => {
    const never = new Promise<number>(() => undefined);
    await assert.rejects(withTimeout(never, 20, 'getChildren', '/slow'), (e: unknown) =>
      e instanceof ZkError && e.code === 'clientTimeout' && e.operation === 'getChildren' && e.path === '/slow');
  });

  test('a settled request leaves no timer behind (the process could not exit otherwise)', async () => {
    const before = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    await withTimeout(Promise.resolve(1), 60_000, 'exists');
    await assert.rejects(withTimeout(Promise.reject(new Error('x')), 60_000, 'exists'));
    assert.equal(process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length, before);
  });
});

describe('mapBounded', () => {
  test('keeps input order and never runs more than the limit at once', async () => {
    let running = 0;
    let peak = 0;
    const result = await mapBounded([5, 1, 4, 2, 3], 2, async (n) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, n));
      running--;
      return n * 10;
    });
    assert.deepEqual(result, [50, 10, 40, 20, 30]);
    assert.equal(peak, 2);
  });
});

test('afterDelay chains timers past one timer\'s reach and can be cancelled', async () => {
  const started = Date.now();
  await new Promise<void>((resolve) => afterDelay(30, resolve, 7));
  assert.ok(Date.now() - started >= 29, 'not before its time');
  let fired = false;
  const cancel = afterDelay(20, () => { fired = true; }, 7);
  cancel();
  await new Promise<void>((resolve) => afterDelay(40, resolve, 7));
  assert.equal(fired, false);
});
