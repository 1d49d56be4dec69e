// The leader's tracker, from one reading of the servers' tables, as sessionEnds.ts reads it: only the leader (or a
// standalone server) tracks every session. How late its clock was at least comes from our own session, which the
// monitor touched just before asking: the server set its expiry to the touch time plus its timeout, rounded up to a tick.
import type { TablesReading } from '../analysis/monitor';
import type { TrackerReading } from './sessionEnds';

export interface OwnSession {
  sessionId?: string;
  timeoutMs: number;
  chroot?: string;
}

function inChroot(paths: readonly string[], chroot: string | undefined): string[] {
  if (!chroot) return [...paths];
  return paths.filter((p) => p.startsWith(`${chroot}/`)).map((p) => p.slice(chroot.length));
}

export function trackerReadingOf(reading: TablesReading, own: OwnSession): TrackerReading | undefined {
  const leader = reading.tables.find((t) => t.trackedSessions && (t.monitor?.server_state === 'leader' || t.monitor?.server_state === 'standalone'));
  if (!leader?.trackedSessions) return undefined;
  const sessions = new Map<string, number | undefined>();
  for (const session of leader.trackedSessions.keys()) sessions.set(session, leader.sessionExpiry?.get(session));
  const ephemerals = new Map<string, string[]>();
  for (const [session, paths] of leader.ephemerals ?? []) ephemerals.set(session, inChroot(paths, own.chroot));
  const ownExpiry = own.sessionId === undefined ? undefined : sessions.get(own.sessionId);
  const tickMs = leader.tickMs;
  const clockAtLeast = ownExpiry !== undefined && tickMs && own.timeoutMs > 0 ? ownExpiry - own.timeoutMs - tickMs : undefined;
  let connected: Set<string> | undefined = new Set();
  for (const t of reading.tables) {
    if (!t.connections) connected = undefined;
    else for (const s of t.connections.keys()) connected?.add(s);
  }
  return { askedAt: reading.askedAt, answeredAt: reading.answeredAt, sessions, ephemerals, connected, clockAtLeast, tickMs };
}
