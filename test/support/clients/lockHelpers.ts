// Helpers for lock tests: managers on a real server, state trails, queue listings, notification counts.
import * as fs from 'node:fs';
import * as zookeeper from 'node-zookeeper-client';
import { AcquireOptions, LockHandle, LockManager, LockSnapshot, LockState } from '../../../src/zk/locks/index';
import { sleep } from '../waiting';
import { connectOtherClient, OtherClient } from './zkClient';
import { startStandalone, ZkCluster } from '../servers/zkServer';

export function newManager(connectString: string, sessionTimeoutMs = 10000): LockManager {
  return new LockManager({ connectString, sessionTimeoutMs, requestTimeoutMs: 8000 });
}

/** Every state a handle goes through, from now on. */
export function trail(handle: LockHandle): LockState[] {
  const states: LockState[] = [handle.state];
  handle.on('change', (s: LockSnapshot) => { if (states[states.length - 1] !== s.state) states.push(s.state); });
  return states;
}

/** The children of `path`, read by the other client (kept for the tests that call it this way). */
export const children = (other: OtherClient, path: string): Promise<string[]> => other.children(path);

/** The ephemeral owner of `path` as 0x-hex, read by the other client; undefined when it is gone. */
export const ownerOf = (other: OtherClient, path: string): Promise<string | undefined> => other.ownerOf(path);

/** Counts watch notifications the manager's lock session receives (any type, any path). */
export function countNotifications(manager: LockManager): { count: number; paths: string[] } {
  const counter = { count: 0, paths: [] as string[] };
  const session = manager.lockSession;
  if (!session) throw new Error('no lock session yet');
  session.onNotification((n) => { counter.count++; counter.paths.push(n.path); });
  return counter;
}

/**
 * Expires `sessionId`/`password` on purpose: a twin client attaches to the session and closes it, again until a
 * twin is told the session expired. The owner, dropped by the server when the twin attached, may reconnect and take
 * the session back before the twin's close arrives; one close alone then leaves the session alive.
 */
export async function closeSessionAsTwin(connectString: string, sessionId: Buffer, password: Buffer): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    if (await attachAndClose(connectString, sessionId, password) === 'expired') return;
  }
  throw new Error('the session outlived five closes by a twin');
}

async function attachAndClose(connectString: string, sessionId: Buffer, password: Buffer): Promise<'expired' | 'closed'> {
  const twin = zookeeper.createClient(connectString, {
    sessionTimeout: 10000, retries: 0, spinDelay: 200, sessionId, sessionPassword: password,
  } as unknown as zookeeper.Option);
  const attached = await new Promise<'expired' | 'connected'>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('twin did not connect')), 10000);
    twin.once('connected', () => { clearTimeout(timer); resolve('connected'); });
    twin.once('expired', () => { clearTimeout(timer); resolve('expired'); });
    twin.connect();
  });
  await new Promise<void>((resolve) => {
    twin.once('disconnected', () => resolve());
    twin.close();
    setTimeout(resolve, attached === 'expired' ? 0 : 2000);
  });
  return attached === 'expired' ? 'expired' : 'closed';
}

export { sleep } from '../waiting';

/**
 * ZooScope's side of a `cycles` run (see thirdParty/driver.ts): n × acquire, append `enter <kind> <name> <i>`, hold
 * `holdMs`, append `exit …`, release — into the same log the third-party drivers write.
 */
export async function zooscopeCycles(manager: LockManager, path: string, n: number, log: string, name: string,
  options: AcquireOptions = {}, holdMs = 2): Promise<void> {
  const kind = options.mode === 'read' ? 'read' : options.mode === 'write' ? 'write' : 'mutex';
  for (let i = 0; i < n; i++) {
    const handle = await manager.acquire(path, options);
    await handle.whenHeld();
    fs.appendFileSync(log, `enter ${kind} ${name} ${i}\n`);
    if (holdMs) await sleep(holdMs);
    fs.appendFileSync(log, `exit ${kind} ${name} ${i}\n`);
    await handle.release();
  }
}

type Hook = (fn: () => Promise<void>) => unknown;

/** A standalone server, another client and lock managers for one suite of lock tests. */
export interface LockSuite {
  readonly zk: ZkCluster;
  readonly other: OtherClient;
  /** A new manager on the suite's server, closed after the suite. */
  manager(): LockManager;
}

/** Starts the suite's server and other client in its `before`, and closes everything in its `after`. */
export function lockSuite(hooks: { before: Hook; after: Hook }): LockSuite {
  let zk: ZkCluster | undefined;
  let other: OtherClient | undefined;
  const managers: LockManager[] = [];
  hooks.before(async () => {
    zk = await startStandalone();
    other = await connectOtherClient(zk.connectString);
  });
  hooks.after(async () => {
    for (const m of managers) m.close();
    other?.close();
    await zk?.stop();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the lock suite starts its server in its before hook');
    return value;
  };
  return {
    get zk() { return started(zk); },
    get other() { return started(other); },
    manager() {
      const m = newManager(started(zk).connectString);
      managers.push(m);
      return m;
    },
  };
}
