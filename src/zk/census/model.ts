// The watch census: who watches what on every member, as `zooscope watches --json` prints it and `--compare` reads
// it back. Plain JSON-safe data (session ids are 0x-hex text). Changing a field changes a documented format
// (docs/command-line.md).

/** Why a member did not say something: the CLI and VS Code word these themselves. */
export interface Silence {
  /** What is missing from this member's part of the census. */
  what: 'figures' | 'connections' | 'watches';
  /**
   * `refused`: the four-letter word (detail) is not in the member's `4lw.commands.whitelist`; `failed`: the answer
   * did not come (detail: the error, e.g. the deadline).
   */
  reason: 'refused' | 'failed';
  detail: string;
  /** Why the AdminServer could not say it instead, when one was asked. */
  adminServer?: string;
}

/** How many watchers one kind of change fired on a member since its start (mntr, ZooKeeper 3.6+). */
export interface FanOut {
  event: 'created' | 'deleted' | 'changed' | 'children';
  /** Changes that fired at least one watch. */
  changes: number;
  /** Watchers they fired in all. */
  watchersFired: number;
  /** The most watchers one change fired. */
  most: number;
}

export interface CensusServer {
  /** `host:clientPort`. */
  server: string;
  /** Listed data watches (exists, getData, addWatch); absent when the member would not list them. */
  dataWatches?: number;
  /**
   * Child watches (getChildren): no server lists them; derived as mntr's watch_count less the listed data watches
   * (`childWatchesDerived`). Absent when either figure is missing.
   */
  childWatches?: number;
  childWatchesDerived?: true;
  /** mntr's watch_count (data and child), read before the listing: what the census costs this member. */
  watchCount?: number;
  /** Sessions connected to this member (cons). */
  sessions?: number;
  /** How the member answered: AdminServer, four-letter words, or neither. */
  via: 'admin' | 'fourLetterWords' | 'none';
  /** What it would not say, and why. */
  silences: Silence[];
  /** Watchers fired per change, where the member reports it. */
  fanOut?: FanOut[];
}

export interface PrefixCount {
  /** The parent of the watched paths. */
  prefix: string;
  watches: number;
}

export interface CensusSession {
  id: string;
  clientAddress?: string;
  /** The member the session is connected to: its watches live there. */
  server: string;
  /** Listed data watches. */
  watches: number;
  /** Its watched paths grouped by parent, the most first (at most a few). */
  prefixes: PrefixCount[];
}

export interface CensusPath {
  path: string;
  /** Sessions with a data watch on it, all members together. */
  watchers: number;
}

export interface HerdWaiter {
  /** The waiter's lock node. */
  node: string;
  session: string;
  clientAddress?: string;
  server?: string;
}

export type HerdRiskLevel = 'herd' | 'possible' | 'none' | 'unknown';

export interface HerdRisk {
  /** The lock queue's path (as the analysing session sees it: inside its chroot). */
  lock: string;
  recipe: string;
  waiters: number;
  /** Waiters seen (listed) watching their predecessor: woken one at a time. */
  watchingPredecessor: number;
  /**
   * Waiters seen watching nothing of the queue while their member holds unlisted child watches enough for them:
   * the herd recipe's getChildren on the lock (every release wakes them all).
   */
  unseen: number;
  /** Waiters seen watching nothing while their member holds no child watch to spare: they wait for nothing. */
  watchingNothing: number;
  /** Waiters data-watching a node of the queue other than their predecessor. */
  watchingOther: number;
  /** Waiters whose member's listing is missing (refused, failed) or whose member is unknown. */
  unknown: number;
  risk: HerdRiskLevel;
  /** The waiters behind the risk (unseen first, then watching another node, nothing, unknown). */
  named: (HerdWaiter & { seen: 'unseen' | 'other' | 'nothing' | 'unknown' })[];
}

export interface WatchCensus {
  takenAt: number;
  servers: CensusServer[];
  /** The sessions with the most watches, the most first (at most --top). */
  sessions: CensusSession[];
  /** The paths with the most watchers, the most first (at most --top). */
  paths: CensusPath[];
  herd: HerdRisk[];
  totals: {
    dataWatches: number;
    /** Summed over the members that told it. */
    childWatches?: number;
    /** Sessions holding at least one listed watch, and paths watched: all of them, beyond the lists. */
    watchingSessions: number;
    watchedPaths: number;
  };
  /** Every member listed its watches. */
  complete: boolean;
  /** Queues could not be read for the herd (why), when they could not. */
  herdUnavailable?: string;
}
