// Semaphore contenders as the history tests run them, and what the tests count in a semaphore's holds.
import type { HistoryInterval } from '../../../src/zk/history';
import type { ThirdPartyClient } from './driver';

/** `cycles` × (acquire a lease of `leases`, release it the moment it is logged) by fresh contenders `<prefix>-<i>`. */
export async function leaseLoop(driver: ThirdPartyClient, lock: string, prefix: string, cycles: number, leases: number): Promise<void> {
  for (let i = 0; i < cycles; i++) {
    const id = `${prefix}-${i}`;
    driver.acquire(id, 'semaphore', lock, String(leases));
    await driver.waitForEvent(id, 'acquired', 120000);
    driver.release(id);
    await driver.waitForEvent(id, 'released', 60000);
  }
}

/** The most holds open at once, from the holds' starts and ends (an end at a start hands over). */
export function mostAtOnce(holds: readonly HistoryInterval[]): number {
  const edges = holds.flatMap((h) => [[h.start, 1], [h.end ?? Infinity, -1]]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let open = 0;
  let most = 0;
  for (const [, step] of edges) most = Math.max(most, (open += step));
  return most;
}
