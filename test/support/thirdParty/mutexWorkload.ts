// The lock workload the history tests hold their results against: kazoo and Curator mutex contenders in loops
// (acquire, hold a random short time, release), one kazoo client killed while holding (its session expires with the
// hold) and one giving up while that hold lasts, each client logging its own moments.
import { sleep } from '../waiting';
import { startCurator } from './curator';
import type { DriverEvent, ThirdPartyClient } from './driver';
import { startKazoo } from './kazoo';

export interface MutexWorkload {
  kazoo: ThirdPartyClient;
  curator: ThirdPartyClient;
  doomed: ThirdPartyClient;
  /** Every acquire the clients logged (the doomed one's first). */
  acquired: DriverEvent[];
}

/** `cycles` × (acquire, hold 20–150 ms, release) by fresh contenders `<prefix>-<i>` of one driver. */
async function loop(driver: ThirdPartyClient, lock: string, prefix: string, cycles: number): Promise<void> {
  for (let i = 0; i < cycles; i++) {
    const id = `${prefix}-${i}`;
    driver.acquire(id, 'mutex', lock);
    await driver.waitForEvent(id, 'acquired', 120000);
    await sleep(20 + Math.floor(Math.random() * 130)); // the workload's hold, not a wait for the product
    driver.release(id);
    await driver.waitForEvent(id, 'released', 60000);
  }
}

/**
 * Runs the workload on `kazooLock` and `curatorLock`; the drivers are pushed to `drivers` (the caller closes them).
 * The doomed client's session lasts `doomedSessionMs`.
 */
export async function runMutexWorkload(connectString: string, kazooLock: string, curatorLock: string, options: { cycles: number; workers: number; doomedSessionMs: number }, drivers: ThirdPartyClient[]): Promise<MutexWorkload> {
  const [kazoo, curator, doomed] = await Promise.all([startKazoo(connectString), startCurator(connectString), startKazoo(connectString, options.doomedSessionMs)]);
  drivers.push(kazoo, curator, doomed);
  doomed.acquire('doomed', 'mutex', kazooLock);
  await doomed.waitForEvent('doomed', 'acquired', 60000);
  // Gives up while that hold lasts.
  kazoo.acquire('quitter', 'mutex', kazooLock, 'timeout=0.5');
  await kazoo.waitForEvent('quitter', 'timeout', 60000);
  const loops = [
    ...Array.from({ length: options.workers }, (_, w) => loop(kazoo, kazooLock, `kz${w}`, options.cycles)),
    ...Array.from({ length: options.workers }, (_, w) => loop(curator, curatorLock, `cu${w}`, options.cycles)),
  ];
  await doomed.kill();
  await Promise.all(loops);
  const acquired = [...kazoo.events, ...curator.events, ...doomed.events].filter((e) => e.event === 'acquired');
  return { kazoo, curator, doomed, acquired };
}
