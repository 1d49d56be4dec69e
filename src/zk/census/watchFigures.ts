// What a member's mntr tells of its watches: the total (data and child), the child watches derived from it, and how
// many watchers each kind of change fired, as the member counts it since it started: mntr's summaries
// `node_<event>_watch_count` (ZooKeeper 3.6+: cnt = changes that fired watches, sum = watchers fired, max = the most
// one change fired). Older members lack them: then nothing is shown rather than zeros.
import type { FanOut } from './model';

const EVENTS: readonly [FanOut['event'], string][] = [
  ['children', 'node_children_watch_count'], ['deleted', 'node_deleted_watch_count'],
  ['changed', 'node_changed_watch_count'], ['created', 'node_created_watch_count'],
];

const whole = (text: string | undefined) => (text !== undefined && /^\d+$/.test(text.trim()) ? Number(text) : undefined);

/** The member's fan-out by event; undefined when its mntr has none of the figures. */
export function fanOutOf(monitor: Record<string, string> | undefined): FanOut[] | undefined {
  if (!monitor) return undefined;
  const result: FanOut[] = [];
  for (const [event, name] of EVENTS) {
    const changes = whole(monitor[`cnt_${name}`]);
    const watchersFired = whole(monitor[`sum_${name}`]);
    const most = whole(monitor[`max_${name}`]);
    if (changes === undefined || watchersFired === undefined || most === undefined) continue;
    result.push({ event, changes, watchersFired, most });
  }
  return result.length ? result : undefined;
}

/** mntr's watch_count, or undefined when it does not say. */
export function watchCountOf(monitor: Record<string, string> | undefined): number | undefined {
  return whole(monitor?.watch_count);
}

/**
 * Child watches, which no server lists: the total less the listed data watches. The total is read before and after
 * the listing and the larger kept (a data watch set in between would otherwise be taken off a total that never held
 * it); undefined when any of the three is missing.
 */
export function derivedChildWatches(listed: number | undefined, totalBefore: number | undefined, totalAfter: number | undefined): number | undefined {
  if (listed === undefined || totalBefore === undefined || totalAfter === undefined) return undefined;
  return Math.max(0, Math.max(totalBefore, totalAfter) - listed);
}
