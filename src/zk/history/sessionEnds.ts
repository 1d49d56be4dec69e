// How a participant's node went, told from the leader's session tracker (ZooKeeper's `dump`: each live session with
// the time, on the tracker's own clock, at which it expires unless its client touches it; the servers round that
// time up to a tick). ZooKeeper drops a session from the tracker before it deletes the session's ephemeral nodes
// (whether the session expired or was closed), and never takes it back. Two facts follow, and nothing weaker is used:
// - released: a tracker read after the leader had applied the delete still holds the session: the node was deleted
//   while its session lived (by its owner, or by another session, which the tracker cannot tell apart);
// - expired: after the delete the session is gone, and the last sighting of it with its node still there showed it
//   connected nowhere, silent (its expiry time unmoved) for longer than a client that pings would stay, and due to
//   expire within two ticks. Only a client that reconnected in those last two ticks and closed its session before
//   any reading saw it could look so: the residue of telling it at all, stated in model.ts.
// A session closed by its client leaves no trace apart from "released, then closed a moment later" (kazoo and
// Curator do exactly that when they stop): such an end stays unknown.

/** One reading of the leader's (or a standalone server's) tracker. */
export interface TrackerReading {
  /** Wall clock (ms since the epoch): asking began, and the answer was complete. */
  askedAt: number;
  answeredAt: number;
  /** Tracked sessions, each with its expiry time on the tracker's clock when the server tells it. */
  sessions: ReadonlyMap<string, number | undefined>;
  /** Session → its ephemeral nodes, as the recorder names them (read after `sessions`, in the same answer). */
  ephemerals: ReadonlyMap<string, readonly string[]>;
  /** Sessions connected to any server, when every server told its connections. */
  connected?: ReadonlySet<string>;
  /** The tracker's clock had reached at least this when it listed the sessions (from one of our own sessions). */
  clockAtLeast?: number;
  tickMs?: number;
}

/** The latest reading that showed a session with its node there. */
interface Sighting {
  expiry: number;
  /** When a reading first showed this expiry time (its answer complete). */
  firstSeenAt: number;
  /** When the reading that made this sighting began (wall ms). */
  askedAt: number;
  /** Expiry time minus how late the tracker's clock was at least: an upper bound of the time it had left. */
  leftAtMost?: number;
  tickMs?: number;
  paths: ReadonlySet<string>;
  /** Connected nowhere, as every server told. */
  disconnected: boolean;
}

export type TrackerVerdict = 'released' | 'expired' | 'unknown';

/** A node's end waiting for the tracker: `learntAt` is when the recorder learnt the node had gone (wall ms). */
export interface AwaitedEnd {
  session: string;
  path: string;
  learntAt: number;
  /** When a reading begun after `learntAt` showed the node gone on the leader too (its answer complete). */
  appliedAt?: number;
  sighting?: Sighting;
}

/** Expiry times of the sessions worth following, reading after reading. */
export class TrackerSightings {
  private readonly last = new Map<string, Sighting>();

  /** Updates the sightings of `sessions` (others are forgotten). */
  note(reading: TrackerReading, sessions: ReadonlySet<string>): void {
    for (const session of this.last.keys()) if (!sessions.has(session)) this.last.delete(session);
    for (const session of sessions) {
      const expiry = reading.sessions.get(session);
      if (expiry === undefined) continue;
      const previous = this.last.get(session);
      const firstSeenAt = previous?.expiry === expiry ? previous.firstSeenAt : reading.answeredAt;
      this.last.set(session, {
        expiry, firstSeenAt, askedAt: reading.askedAt,
        leftAtMost: reading.clockAtLeast === undefined ? undefined : expiry - reading.clockAtLeast,
        tickMs: reading.tickMs, paths: new Set(reading.ephemerals.get(session) ?? []),
        disconnected: reading.connected !== undefined && !reading.connected.has(session),
      });
    }
  }

  get(session: string): Sighting | undefined {
    return this.last.get(session);
  }

  /**
   * When a reading would prove a session's expiry once it is gone (showsExpiry): one that finds it connected nowhere,
   * its nodes still there, in its last two ticks, its expiry time unmoved longer than it has left plus two ticks. The
   * regular poll may read just before that window and next after the expiry; this asks for a reading in it. Aimed at
   * least 1.5 ticks before the latest the session can expire, as the tracker's clock may be up to a tick ahead of what
   * we know of it. Undefined: no session needs one, or none could still be proven.
   */
  readingWantedAt(): number | undefined {
    let wanted: number | undefined;
    for (const sighting of this.last.values()) {
      const { tickMs, leftAtMost } = sighting;
      if (!sighting.disconnected || sighting.paths.size === 0 || !tickMs || leftAtMost === undefined) continue;
      const window = 2 * tickMs;
      if (leftAtMost <= window && silentFor(sighting) >= leftAtMost + window) continue; // this sighting is the proof
      const dueBy = sighting.askedAt + leftAtMost;
      const at = Math.max(dueBy - 1.5 * tickMs, (dueBy + sighting.firstSeenAt + window) / 2);
      if (at < dueBy && (wanted === undefined || at < wanted)) wanted = at;
    }
    return wanted;
  }
}

/** How long the sighting's expiry time had stood still at least when it was seen (wall ms). */
function silentFor(sighting: Sighting): number {
  return sighting.askedAt - sighting.firstSeenAt;
}

/** Whether a sighting of a session with its node there proves the session went by expiry once it is gone. */
function showsExpiry(sighting: Sighting | undefined, path: string): boolean {
  // Still connected (a frozen client keeps its connection), its client may yet come back and close it.
  if (!sighting?.tickMs || sighting.leftAtMost === undefined || !sighting.paths.has(path) || !sighting.disconnected) return false;
  const window = 2 * sighting.tickMs;
  // A client pings at least every third of its timeout, and each ping moves the expiry time on by a whole timeout
  // (rounded to a tick): one unmoved longer than what it had left plus two ticks was not pinging.
  return sighting.leftAtMost <= window && silentFor(sighting) >= sighting.leftAtMost + window;
}

/**
 * What `reading` tells of `end` (undefined: not yet anything). A reading must begin after the end was learnt; the
 * session's presence counts only in a reading begun after one that showed the node gone on the leader (the leader
 * may apply a delete after the member that told it).
 */
export function judgeEnd(end: AwaitedEnd, reading: TrackerReading, sightings: TrackerSightings): TrackerVerdict | undefined {
  const sighting = sightings.get(end.session);
  // A later sighting with the node still there is a better one (the leader had not applied the delete yet).
  if (sighting?.paths.has(end.path)) end.sighting = sighting;
  if (reading.askedAt < end.learntAt) return undefined;
  const tracked = reading.sessions.has(end.session);
  if (tracked && end.appliedAt !== undefined && reading.askedAt >= end.appliedAt) return 'released';
  if (!tracked) return showsExpiry(end.sighting, end.path) ? 'expired' : 'unknown';
  if (!reading.ephemerals.get(end.session)?.includes(end.path)) end.appliedAt ??= reading.answeredAt;
  return undefined;
}
