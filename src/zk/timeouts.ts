import { ZkError } from './errors';

/**
 * Rejects with a `clientTimeout` ZkError when `promise` has not settled within `ms`. Every request passes through
 * here (a lock hand-off twice), so it costs one promise and one timer, not a race of three promises.
 */
export function withTimeout<T>(promise: Promise<T>, ms: number, operation: string, path?: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ZkError('clientTimeout', operation, path)), ms);
    promise.then(
      (value) => { clearTimeout(timer); resolve(value); },
      (error: unknown) => { clearTimeout(timer); reject(error); },
    );
  });
}

/** Runs `task` over `items` with at most `limit` in flight, keeping results in input order. */
export async function mapBounded<T, R>(items: readonly T[], limit: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
