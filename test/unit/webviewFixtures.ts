// Lock-analysis models for the webview's unit tests and benchmark: one queue of `size` participants (a holder,
// then waiters each watching its predecessor), shaped like the analysis produces them.
import type { LockAnalysis, LockQueue, Participant } from '../../src/shared/lockAnalysis';

export interface FixtureOptions {
  root?: string;
  /** Name of the holder's node (e.g. markup, to test that it stays text). */
  holderName?: string;
  /** Participants whose `label` gets a suffix, to make exactly those rows change. */
  changed?: number[];
  labelSuffix?: string;
  now?: number;
}

const pad = (n: number) => String(n).padStart(10, '0');

export function fixtureQueue(size: number, o: FixtureOptions = {}): LockQueue {
  const root = o.root ?? '/locks/orders';
  const now = o.now ?? 1_700_000_000_000;
  const changed = new Set(o.changed ?? []);
  const participants: Participant[] = [];
  for (let i = 0; i < size; i++) {
    const name = i === 0 && o.holderName ? o.holderName : `_c_${(i * 7919).toString(16).padStart(8, '0')}-lock-${pad(i)}`;
    const path = `${root}/${name}`;
    const previous = participants[i - 1];
    participants.push({
      path, name, sequence: i, kind: 'exclusive', role: i === 0 ? 'holder' : 'waiter', position: i,
      session: `0x${(0x1000 + i).toString(16)}`, clientAddress: `10.0.${i >> 8 & 255}.${i & 255}:${40000 + (i % 20000)}`,
      label: `worker-${i}${changed.has(i) ? o.labelSuffix ?? '*' : ''}`, since: now - (size - i) * 1000,
      waitsFor: previous ? [previous.path] : [],
      watches: previous ? [{ path: previous.path, source: i % 2 ? 'server' : 'inferred' }] : [],
      ours: i === 2,
      // The holder is known to hold since its node was created (nothing left the queue before it).
      ...(i === 0 ? { held: { since: now - size * 1000, exact: true } } : {}),
    });
  }
  return {
    path: root, recipe: 'curator-mutex', participants,
    anomalies: size > 0 ? [{ kind: 'held-too-long', severity: 'warning', paths: [participants[0].path], sessions: [participants[0].session!], facts: { heldMs: 3_600_000, thresholdMs: 600_000 } }] : [],
  };
}

export function fixtureAnalysis(size: number, o: FixtureOptions = {}): LockAnalysis {
  const queue = fixtureQueue(size, o);
  return {
    root: queue.path, takenAt: o.now ?? 1_700_000_000_000, queues: [queue],
    sessions: [], deadlocks: [], anomalies: [],
    servers: [{ server: '127.0.0.1:2181', via: 'fourLetterWords', dataWatches: size, childWatches: 0 }],
  };
}
