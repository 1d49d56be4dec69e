// Hand-made analyses as the live monitor emits them, for the lock history tests.
import type { LockAnalysis, Participant } from '../../src/zk/analysis';

export const T0 = 1_800_000_000_000;

export interface Member {
  name: string;
  session: string;
  /** ctime, ms after T0. */
  since: number;
  holding?: boolean;
  /** held.since (ms after T0) and whether exact. */
  held?: [number, boolean];
  client?: string;
  kind?: Participant['kind'];
  role?: Participant['role'];
}

export function participant(lock: string, m: Member, position: number): Participant {
  return {
    path: `${lock}/${m.name}`, name: m.name, kind: m.kind ?? 'exclusive', role: m.role ?? (m.holding ? 'holder' : 'waiter'), position,
    session: m.session, since: T0 + m.since, waitsFor: [], watches: [],
    ...(m.client ? { clientAddress: m.client } : {}),
    ...(m.holding ? { held: { since: T0 + (m.held?.[0] ?? m.since), exact: m.held?.[1] ?? true } } : {}),
  };
}

/** An analysis at `at` ms after T0 of the given queues; sessions listed alive unless in `gone`. */
export function snapshot(at: number, queues: Record<string, Member[]>, gone: string[] = []): LockAnalysis {
  const sessions = new Set<string>();
  for (const members of Object.values(queues)) for (const m of members) sessions.add(m.session);
  return {
    root: '/', takenAt: T0 + at, deadlocks: [], servers: [], anomalies: [],
    queues: Object.entries(queues).map(([path, members]) => ({
      path, recipe: 'kazoo-lock', participants: members.map((m, i) => participant(path, m, i)), anomalies: [],
    })),
    sessions: [...[...sessions].filter((id) => !gone.includes(id)).map((id) => ({ id, ephemerals: [], watches: [], alive: true })), ...gone.map((id) => ({ id, ephemerals: [], watches: [], alive: false }))],
  };
}
