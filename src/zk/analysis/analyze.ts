// One snapshot of the lock queues at or under a path: discover, read the nodes and (in parallel) every member's
// tables, then build the analysis.
import type { ZkSession } from '../session/session';
import { readAllServerTables, ServerEndpoint, ServerTables } from '../servers/serverTables';
import { buildAnalysis, DEFAULT_HELD_TOO_LONG_MS } from './build';
import type { RawQueue } from './rawQueue';
import { discoverQueues, QueueSpec } from './discover';
import type { LockAnalysis } from '../../shared/lockAnalysis';
import { readQueue } from './readQueue';

export interface AnalyzeOptions {
  /** Anomaly threshold for a holder, default 10 min. */
  heldTooLongMs?: number;
  /** 0x-hex ids of ZooScope's own sessions (labelled `ours`). The analysing session is always included. */
  ourSessions?: string[];
  /** Ask every member for watch tables (default true). */
  serverWatches?: boolean;
  /** AdminServer port on every member (default 8080); four-letter words when it does not answer. */
  adminPort?: number;
  /** AdminServer port per member (`host:clientPort` → port), where members differ. */
  adminPorts?: Record<string, number>;
  /** For "Show Locks Under…" on a subtree: stop after this many queues (default 100). */
  maxQueues?: number;
  /** Timeout of each server command (default 3000 ms). */
  serverTimeoutMs?: number;
  signal?: AbortSignal;
}

export function serverEndpoints(session: ZkSession, options: AnalyzeOptions): ServerEndpoint[] {
  return session.parsed.servers.map(({ host, port }) => ({
    host, port, adminPort: options.adminPorts?.[`${host}:${port}`] ?? options.adminPort ?? 8080,
  }));
}

export function readTables(session: ZkSession, options: AnalyzeOptions): Promise<ServerTables[]> {
  return readAllServerTables(serverEndpoints(session, options), { timeoutMs: options.serverTimeoutMs, signal: options.signal, tls: session.serverTls, dialer: session.dialer });
}

export function ourSessionsOf(session: ZkSession, options: AnalyzeOptions): string[] {
  const own = session.sessionId;
  return [...(options.ourSessions ?? []), ...(own ? [own] : [])];
}

export async function readSpecs(session: ZkSession, specs: readonly QueueSpec[], fresh: boolean): Promise<RawQueue[]> {
  const result: RawQueue[] = [];
  // Queues one after another: each is already read with a window of requests in flight.
  for (const spec of specs) result.push(await readQueue(session, spec, fresh));
  return result;
}

export async function analyzeLocks(session: ZkSession, root: string, options: AnalyzeOptions = {}): Promise<LockAnalysis> {
  const tablesPromise = options.serverWatches === false ? Promise.resolve(undefined) : readTables(session, options);
  // Do not leave the tables' promise unobserved if discovery fails.
  tablesPromise.catch(() => undefined);
  const discovery = await discoverQueues(session, root, { maxQueues: options.maxQueues, signal: options.signal });
  const queues = await readSpecs(session, discovery.specs, false);
  const tables = await tablesPromise;
  return buildAnalysis({
    root, takenAt: Date.now(), queues, tables,
    heldTooLongMs: options.heldTooLongMs ?? DEFAULT_HELD_TOO_LONG_MS,
    ourSessions: ourSessionsOf(session, options), truncated: discovery.truncated,
    chroot: session.parsed.chroot, unreadable: discovery.unreadable,
  });
}
