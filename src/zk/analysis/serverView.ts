// All members' tables merged into one view: a session is connected to one member, its watches live there, and
// every member knows every ephemeral node. "Complete" means every member answered that part.
import type { ServerTables } from '../servers/serverTables';
import type { ServerWatchInfo } from '../../shared/lockAnalysis';

export interface ServerView {
  /** Whether any member's tables were read at all. */
  available: boolean;
  connectionsComplete: boolean;
  watchesComplete: boolean;
  /** Session → client address and the member it is connected to. */
  connected: Map<string, { client: string; server: string }>;
  /** Session → data-watched paths (all members). */
  watchesBySession: Map<string, Set<string>>;
  /** Path → sessions with a data watch on it. */
  watchersByPath: Map<string, Set<string>>;
  ephemerals: Map<string, string[]>;
  /** Sessions held by a leader's or standalone server's session tracker; undefined when none was read. */
  tracked?: Set<string>;
  /** Child watches the servers hold but cannot list (mntr total minus data watches), summed. */
  childWatches?: number;
  servers: ServerWatchInfo[];
  /** When the oldest member's tables were read: nodes created later cannot be judged by them yet. */
  readAt?: number;
}

/**
 * A server path as the session sees it under `chroot` (servers list absolute paths), or undefined when it lies
 * outside the chroot.
 */
export function pathInChroot(path: string, chroot: string | undefined): string | undefined {
  if (!chroot || chroot === '/') return path;
  if (path === chroot) return '/';
  return path.startsWith(`${chroot}/`) ? path.slice(chroot.length) : undefined;
}

function pathsInChroot(paths: readonly string[], chroot: string | undefined): string[] {
  if (!chroot) return [...paths];
  return paths.map((p) => pathInChroot(p, chroot)).filter((p): p is string => p !== undefined);
}

/** Merges every member's tables; with a chroot, paths are mapped into it and the others left out. */
export function mergeServerTables(tables: readonly ServerTables[] | undefined, chroot?: string): ServerView {
  const view: ServerView = {
    available: false, connectionsComplete: false, watchesComplete: false,
    connected: new Map(), watchesBySession: new Map(), watchersByPath: new Map(), ephemerals: new Map(), servers: [],
  };
  if (!tables || tables.length === 0) return view;
  view.connectionsComplete = tables.every((t) => !!t.connections);
  const times = tables.map((t) => t.readAt).filter((t): t is number => t !== undefined);
  if (times.length) view.readAt = Math.min(...times);
  view.watchesComplete = tables.every((t) => !!t.watches);
  let childWatches: number | undefined;
  for (const t of tables) {
    if (t.connections || t.watches) view.available = true;
    for (const [session, client] of t.connections ?? []) view.connected.set(session, { client, server: t.server });
    for (const [session, paths] of t.watches ?? []) {
      let set = view.watchesBySession.get(session);
      if (!set) view.watchesBySession.set(session, set = new Set());
      for (const p of pathsInChroot(paths, chroot)) {
        set.add(p);
        let watchers = view.watchersByPath.get(p);
        if (!watchers) view.watchersByPath.set(p, watchers = new Set());
        watchers.add(session);
      }
    }
    for (const [session, paths] of t.ephemerals ?? []) if (!view.ephemerals.has(session)) view.ephemerals.set(session, pathsInChroot(paths, chroot));
    const state = t.monitor?.server_state;
    if (t.trackedSessions && (state === 'leader' || state === 'standalone')) {
      view.tracked ??= new Set();
      for (const s of t.trackedSessions.keys()) view.tracked.add(s);
    }
    const info: ServerWatchInfo = { server: t.server, via: t.via };
    if (t.secure) info.secure = true;
    if (t.reason) info.reason = t.reason;
    if (t.dataWatches !== undefined) info.dataWatches = t.dataWatches;
    if (t.totalWatches !== undefined && t.dataWatches !== undefined) {
      info.childWatches = Math.max(0, t.totalWatches - t.dataWatches);
      childWatches = (childWatches ?? 0) + info.childWatches;
    }
    view.servers.push(info);
  }
  view.childWatches = childWatches;
  return view;
}
