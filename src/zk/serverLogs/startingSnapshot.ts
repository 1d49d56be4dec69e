// The snapshot a history from the logs starts from: who was there when the logs begin. A snapshot is fuzzy (taken
// while transactions applied), so the logs are replayed from the zxid in its name on; the oldest snapshot the logs
// go on from gives the longest history.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isBelow } from '../paths';
import { hex } from '../stat';
import { firstZxidOfName, type LogSource } from './logSet';
import { readSnapshotFile } from './snapshotReader';

/** A node of the snapshot the logs go on from, under the path asked about. */
export interface StartNode {
  path: string;
  ctime: number;
  /** ephemeralOwner (0: persistent). */
  owner: bigint;
  data: Buffer | null;
}

const SNAPSHOT_NAME = /^snapshot\.([0-9a-f]+)(\.gz|\.snappy)?$/i;

/**
 * What the nodes kept from a starting snapshot may weigh (paths and data, with what each costs besides): a lock path
 * holds a queue, not a tree; a snapshot that puts more under it (a bomb, or a path too near the root) is refused in
 * one line instead of filling the memory.
 */
export const START_NODES_BUDGET = 512 * 1024 * 1024;
const NODE_OVERHEAD = 160;
const sizeText = (bytes: number) => (bytes >= 1048576 ? `${Math.round(bytes / 1048576)} MiB` : `${Math.round(bytes / 1024)} KiB`);
const weight = (node: StartNode) => NODE_OVERHEAD + 2 * node.path.length + (node.data?.length ?? 0);

export interface StartOptions {
  /** Bytes the nodes kept may weigh (START_NODES_BUDGET). */
  budget?: number;
  /** Which nodes a history needs (default: those below `root`); read as the snapshot streams by, never all held. */
  includes?: (path: string) => boolean;
  /** Stops the read (a snapshot may be gigabytes). */
  signal?: AbortSignal;
}

export interface StartingSnapshot {
  file: string;
  zxid: bigint;
  nodes: StartNode[];
}

/** Snapshot files of the sources' folders, by the zxid in their names. */
export function snapshotsOf(sources: readonly LogSource[]): { file: string; zxid: bigint }[] {
  const dirs = new Set(sources.flatMap((source) => source.files.map((file) => path.dirname(file))));
  return [...dirs].flatMap((dir) => fs.readdirSync(dir).flatMap((name) => {
    const match = SNAPSHOT_NAME.exec(name);
    return match ? [{ file: path.join(dir, name), zxid: BigInt(`0x${match[1]}`) }] : [];
  }));
}

/**
 * The oldest snapshot the logs go on from (its zxid + 1 at or after where the oldest log file begins), with its nodes
 * under `root`; or one line saying why there is none (then who was queued when the logs begin is not known).
 */
export async function startingSnapshot(sources: readonly LogSource[], root: string, options: StartOptions = {}): Promise<StartingSnapshot | { problem: string }> {
  const { budget = START_NODES_BUDGET, includes = (path: string) => isBelow(path, root), signal } = options;
  const logStarts = sources.flatMap((source) => source.files.map(firstZxidOfName)).filter((z): z is bigint => z !== undefined);
  if (logStarts.length === 0) return { problem: 'no log files (log.<zxid>) were given' };
  const logStart = logStarts.reduce((a, b) => (b < a ? b : a));
  const usable = snapshotsOf(sources).filter((s) => s.zxid + 1n >= logStart).sort((a, b) => (a.zxid < b.zxid ? -1 : a.zxid > b.zxid ? 1 : 0));
  const problems: string[] = [];
  for (const snapshot of usable) {
    const nodes: StartNode[] = [];
    let trouble: string | undefined;
    let kept = 0;
    let read = 0;
    for await (const item of readSnapshotFile(snapshot.file)) {
      if ((read++ & 0xffff) === 0) signal?.throwIfAborted();
      if (item.kind === 'issue') trouble = item.issue.message;
      else if (item.kind === 'node' && includes(item.node.path)) {
        const node = { path: item.node.path, ctime: item.node.stat.ctime, owner: item.node.stat.ephemeralOwner, data: item.node.data };
        kept += weight(node);
        if (kept > budget) {
          return { problem: `${path.basename(snapshot.file)} holds more under ${root} than a lock's queue (over ${sizeText(budget)} in ${nodes.length.toLocaleString('en-US')} nodes): give the queue's own path` };
        }
        nodes.push(node);
      }
    }
    if (!trouble) return { file: snapshot.file, zxid: snapshot.zxid, nodes };
    problems.push(trouble);
  }
  const none = `no snapshot tells who was queued when the logs begin (zxid ${hex(logStart)}): give the member's whole data directory (its snapshot.<zxid> files beside the logs)`;
  return { problem: problems.length > 0 ? `${none}; ${problems.join('; ')}` : none };
}
