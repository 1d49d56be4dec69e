// The ZooKeeper side of the benchmarks: one standalone server per bench run, wide nodes created once with
// bounded pipelining, plain node-zookeeper-client helpers for the baselines, and fresh ZooScope sessions/trees.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zookeeper from 'node-zookeeper-client';
import { ConnectionTree } from '../src/zk/tree/connectionTree';
import { ConnectionNode, PathNode } from '../src/zk/tree/treeNodes';
import { ZkSession } from '../src/zk/session/session';
import { mapBounded } from '../src/zk/timeouts';
import { startStandalone, ZkCluster } from '../test/support/servers/zkServer';
import { connectOtherClient, OtherClient } from '../test/support/clients/zkClient';

/** At most this many creates in flight while seeding (node-zookeeper-client slows down with long queues). */
export const CREATE_WINDOW = 512;

export const PAGE_SIZE = 1000;
export const WINDOW = 256;
export const DEBOUNCE_MS = 30;

export interface WideNode {
  path: string;
  children: number;
}

/** statfs magic numbers of memory-backed file systems (tmpfs, ramfs): fsync there costs nothing. */
const MEMORY_FS = new Set([0x01021994, 0x858458f6]);

/**
 * A standalone server with its data dir on DISK (the OS temp dir, or BENCH_ZK_DIR), as users' servers are: its
 * writes pay for fsync, so lock figures can stand beside Curator's and kazoo's on the same server. The bench
 * refuses a memory-backed folder; the JSON records the file system's type.
 */
export async function startServer(): Promise<{ cluster: ZkCluster; dataDir: string; fsType: string }> {
  const parent = process.env.BENCH_ZK_DIR ?? os.tmpdir();
  const type = fs.statfsSync(parent).type;
  if (MEMORY_FS.has(type)) throw new Error(`bench: ${parent} is memory-backed (statfs type 0x${type.toString(16)}); set BENCH_ZK_DIR to a folder on disk`);
  const baseDir = fs.mkdtempSync(path.join(parent, 'zooscope-bench-'));
  try {
    const cluster = await startStandalone({ baseDir, adminServer: false });
    // baseDir is ours (startStandalone only removes folders it made): remove it with the server.
    const stop = cluster.stop.bind(cluster);
    cluster.stop = async () => {
      await stop();
      fs.rmSync(baseDir, { recursive: true, force: true });
    };
    return { cluster, dataDir: baseDir, fsType: `0x${type.toString(16)}` };
  } catch (error) {
    fs.rmSync(baseDir, { recursive: true, force: true });
    throw error;
  }
}

/** Child names as the demo and real systems have them: a prefix and an unpadded number (natural order matters). */
export const childName = (i: number): string => `item-${i}`;

/** Creates `parent` and its `children` children, with at most CREATE_WINDOW creates in flight. */
export async function createWideNode(client: OtherClient, node: WideNode): Promise<void> {
  await client.mkdirp(node.path);
  const indexes = Array.from({ length: node.children }, (_, i) => i + 1);
  await mapBounded(indexes, CREATE_WINDOW, (i) => client.create(`${node.path}/${childName(i)}`));
}

/** node-zookeeper-client's own getChildren (a getChildren2 request: names and Stat), as a promise. */
export function rawGetChildren(client: zookeeper.Client, nodePath: string, watcher?: (event: zookeeper.Event) => void): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const callback = (error: Error | zookeeper.Exception | null, children: string[]) => (error ? reject(error) : resolve(children));
    if (watcher) client.getChildren(nodePath, watcher, callback);
    else client.getChildren(nodePath, callback);
  });
}

export function rawExists(client: zookeeper.Client, nodePath: string): Promise<zookeeper.Stat | null> {
  return new Promise((resolve, reject) => {
    client.exists(nodePath, (error, stat) => (error ? reject(error) : resolve(stat)));
  });
}

export async function openSession(connectString: string): Promise<ZkSession> {
  const session = new ZkSession({ connectString, sessionTimeoutMs: 30000, requestTimeoutMs: 30000 });
  await session.open();
  return session;
}

/** A ConnectionTree with the extension's default settings, as the tree provider builds it. */
export function newTree(session: ZkSession, changed: (node: PathNode) => void, debounceMs = DEBOUNCE_MS): ConnectionTree {
  return new ConnectionTree(
    new ConnectionNode('bench'),
    session,
    () => ({ pageSize: PAGE_SIZE, window: WINDOW, liveUpdates: true, debounceMs }),
    changed,
    (message) => console.warn(`bench: tree warning: ${message}`),
  );
}

export { connectOtherClient };
export type { OtherClient };

/** vscode.l10n.t without a bundle (English): `{0}`-style arguments substituted, as the extension shows them. */
export const l10nLike = (message: string, ...args: (string | number | boolean)[]): string =>
  args.length ? message.replace(/\{(\d+)\}/g, (whole, i: string) => (Number(i) < args.length ? String(args[Number(i)]) : whole)) : message;
