import { ZkError } from './errors';

/**
 * Longest delay one timer (and ZooKeeper's int32 millisecond fields) can hold: 2^31 - 1 ms, about 24.8 days. Above
 * it Node's setTimeout waits 1 ms instead (and warns).
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

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

/** Calls `fn` after `ms`, however long (setTimeout waits 1 ms above MAX_TIMER_MS): chained timers. Returns a cancel. */
export function afterDelay(ms: number, fn: () => void, chunkMs = MAX_TIMER_MS): () => void {
  let timer: NodeJS.Timeout | undefined;
  const due = Date.now() + ms;
  const arm = (left: number) => {
    timer = setTimeout(() => {
      const rest = due - Date.now();
      if (rest > 0) arm(rest);
      else fn();
    }, Math.min(left, chunkMs));
  };
  arm(ms);
  return () => clearTimeout(timer);
}
