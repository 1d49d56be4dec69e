// The lock-queue analysis model: what the analysis produces, the CLI prints as JSON (`zooscope locks --json`),
// and the webview renders. Plain data only (JSON-safe: 64-bit values are strings), so it crosses to the webview
// and into files unchanged. Changing a field here is a change to a documented format: update the README.

/** A session id as ZooKeeper tools print it: `0x` + lowercase hex, exact (never a JS number). */
export type SessionId = string;

export type RecipeId =
  | 'curator-mutex' | 'curator-rwlock' | 'curator-semaphore' | 'curator-leader-latch' | 'curator-leader-selector'
  | 'kazoo-lock' | 'kazoo-rwlock' | 'kazoo-semaphore' | 'kazoo-election'
  | 'zk-write-lock' | 'zk-leader-election'
  | 'go-zookeeper-lock' | 'solr-election' | 'plain-lock' | 'plain-rwlock'
  | 'fixed-leader' | 'unknown'
  /** Known systems' elections (src/zk/analysis/systemElections.ts). */
  | 'patroni-leader' | 'hbase-master' | 'hadoop-ha-elector' | 'kafka-controller' | 'clickhouse-leader-election' | 'solr-overseer';

export type ParticipantKind = 'exclusive' | 'read' | 'write' | 'lease' | 'candidate';
export type ParticipantRole = 'holder' | 'waiter' | 'leader';

/** How an edge "A waits for / watches B" is known. */
export type EdgeSource = 'server' | 'inferred';

export interface Participant {
  /** Full znode path of the participant's node. */
  path: string;
  name: string;
  /** Sequence number as written in the name (may be negative after overflow); absent for non-sequential nodes. */
  sequence?: number;
  kind: ParticipantKind;
  role: ParticipantRole;
  /** Position in queue order, 0 = first. */
  position: number;
  /** Owner session (ephemeralOwner); absent for persistent nodes (which is itself an anomaly for a lock). */
  session?: SessionId;
  /** Client address of the owner session (`host:port`) where a server told us. */
  clientAddress?: string;
  /** The node's data shown as a label (UTF-8 if printable, else hex), truncated. Untrusted text. */
  label?: string;
  /** ctime in ms since the epoch: when it queued (not when it began to hold). */
  since: number;
  /**
   * Holders and leaders: since when it holds, as far as is known (ms since the epoch). `exact` when it held from
   * its creation (no child of the queue was deleted since) or a live monitor saw it take over; otherwise `since`
   * is only when it was first seen holding, a lower bound of how long it has held.
   */
  held?: { since: number; exact: boolean };
  /** Paths this participant waits for under its library's rules (empty for holders). */
  waitsFor: string[];
  /** Paths its session is seen watching on some server (data watches only), or inferred from the recipe. */
  watches: { path: string; source: EdgeSource }[];
  /** Whether this node belongs to one of ZooScope's own sessions. */
  ours?: boolean;
  /**
   * A contender known only from the servers' watch tables: it owns no node (sessions waiting on a fixed leader
   * node such as Kafka's /controller). `path` is then the node it watches and `since` is 0 (unknown).
   */
  nodeless?: boolean;
}

export type AnomalyKind =
  | 'herd' | 'stuck-waiter' | 'persistent-lock-node' | 'dead-owner' | 'held-too-long' | 'duplicate-guid'
  | 'deadlock' | 'unknown-recipe' | 'child-watches-invisible'
  /** One queue holds nodes of libraries that do not see each other's nodes: mutual exclusion is not guaranteed. */
  | 'mixed-recipes'
  /** A session waits behind its own node in one queue (several threads of one client): not a deadlock. */
  | 'self-wait'
  /** Paths the analysing session may not read (noAuth): left out, the rest is analysed. */
  | 'unreadable';

export interface Anomaly {
  kind: AnomalyKind;
  severity: 'info' | 'warning' | 'error';
  /** Paths the anomaly is about (queue, participant nodes). */
  paths: string[];
  sessions: SessionId[];
  /** Structured facts for the explanation (counts, durations); the text is produced by the front end (localized). */
  facts: Record<string, string | number>;
}

export interface LockQueue {
  /** The queue's parent path (for fixed leader nodes: the node itself). */
  path: string;
  recipe: RecipeId;
  /** Number of leases for semaphores, else 1 (read locks: readers share, see kind). */
  leases?: number;
  /** Participants in queue order (holders first as the recipe decides). */
  participants: Participant[];
  anomalies: Anomaly[];
}

export interface SessionInfo {
  id: SessionId;
  clientAddress?: string;
  /** Server (`host:port`) the session is connected to, where known. */
  server?: string;
  /** Ephemeral nodes it owns (lock nodes and others), possibly truncated. */
  ephemerals: string[];
  /** Paths it watches (data watches, as the servers report). */
  watches: string[];
  ours?: boolean;
  /** False when no server knows the session any more. */
  alive?: boolean;
}

export interface DeadlockCycle {
  /** Sessions in cycle order: each waits for the next, the last for the first. */
  sessions: SessionId[];
  /** The lock queue path each wait happens on, aligned with `sessions`. */
  locks: string[];
  /** Client address of each session where a server told it, aligned with `sessions`. */
  clients?: (string | null)[];
}

export interface ServerWatchInfo {
  server: string;
  /** How watch tables were read: AdminServer, four-letter words, or not at all (with why). */
  via: 'admin' | 'fourLetterWords' | 'none';
  /** Read over TLS (four-letter words) or HTTPS (AdminServer). */
  secure?: boolean;
  reason?: string;
  dataWatches?: number;
  /** mntr's zk_watch_count minus data watches: child watches the server cannot list. */
  childWatches?: number;
}

export interface LockAnalysis {
  /** The analysed root (a queue or a subtree). */
  root: string;
  /** When the snapshot was taken (ms since epoch). */
  takenAt: number;
  queues: LockQueue[];
  sessions: SessionInfo[];
  deadlocks: DeadlockCycle[];
  servers: ServerWatchInfo[];
  /** Anomalies not tied to one queue (deadlocks are also listed here). */
  anomalies: Anomaly[];
  /** The subtree crawl stopped at its bound (maxQueues, or the node limit): more queues may exist below root. */
  truncated?: boolean;
  /** Paths that could not be read (no permission): folders not crawled, or queue nodes whose data is unknown. */
  unreadable?: UnreadablePath[];
}

export interface UnreadablePath {
  path: string;
  /** ZooKeeper's error name, e.g. `noAuth`. */
  reason: string;
  /** What is missing: a folder's children (not crawled) or a node's data (its Stat came from exists). */
  what: 'children' | 'data';
}

/** A stable key for an anomaly within one analysis (kind + the paths it is about). */
export function anomalyKey(anomaly: Anomaly): string {
  return `${anomaly.kind}\u0000${anomaly.paths.join('\u0000')}\u0000${anomaly.sessions.join('\u0000')}`;
}
