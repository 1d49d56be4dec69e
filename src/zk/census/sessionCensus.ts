// The census of the ensemble a session is connected to: its lock queues read first (for the herd; without the
// servers' tables, which the census reads itself), then every member named in its connect string.
import { analyzeLocks } from '../analysis';
import type { ZkSession } from '../session/session';
import { CensusOptions, takeCensus } from './census';
import type { WatchCensus } from './model';

/** ZooKeeper's own AdminServer port, asked when no other is given (as the lock analysis does). */
export const DEFAULT_ADMIN_PORT = 8080;

export interface SessionCensusOptions extends Omit<CensusOptions, 'queues' | 'chroot' | 'tls' | 'dialer'> {
  /** The AdminServer port of every member (default 8080), or per member (`host:clientPort` → port). */
  adminPort?: number;
  adminPorts?: Record<string, number>;
  /** Where lock queues are looked for (default: the whole tree, as far as the analysis' bound goes). */
  locksUnder?: string;
  maxQueues?: number;
}

export async function censusOfSession(session: ZkSession, options: SessionCensusOptions = {}): Promise<WatchCensus | undefined> {
  let queues;
  let herdUnavailable: string | undefined;
  try {
    const analysis = await analyzeLocks(session, options.locksUnder ?? '/', { serverWatches: false, maxQueues: options.maxQueues, signal: options.signal });
    queues = analysis.queues;
  } catch (error) {
    if (options.signal?.aborted) throw error;
    herdUnavailable = (error as Error).message;
  }
  const endpoints = session.parsed.servers.map(({ host, port }) => ({
    host, port, adminPort: options.adminPorts?.[`${host}:${port}`] ?? options.adminPort ?? DEFAULT_ADMIN_PORT,
  }));
  const census = await takeCensus(endpoints, {
    ...options, queues, chroot: session.parsed.chroot, tls: session.serverTls, dialer: session.dialer,
  });
  if (census && herdUnavailable !== undefined) census.herdUnavailable = herdUnavailable;
  return census;
}
