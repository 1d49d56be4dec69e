// The members of the queues a recorder follows from the server's own notifications (a persistent recursive watch):
// each create and delete under a queue changes its member set in the order the server tells, and who holds follows
// from the names alone, under the same rules the analysis uses, with no read. Semaphores (whose rules need each
// node's owner) and fixed leader nodes are left to the analyses.
import { baseName, parentPath } from '../paths';
import { participantsOf, QueueNode } from '../analysis/queueRules';
import { Family, recognizeQueue } from '../analysis/recipes';
import type { Participant, RecipeId } from '../../shared/lockAnalysis';
import type { HistoryInterval } from './model';

const READ_ONLY_RECIPES: ReadonlySet<RecipeId> = new Set(['curator-semaphore', 'kazoo-semaphore', 'fixed-leader']);

/** Whether a queue of this recipe is followed from the events (its roles follow from its member names). */
export function followsNames(recipe: RecipeId): boolean {
  return !READ_ONLY_RECIPES.has(recipe);
}

export interface Member {
  name: string;
  path: string;
  /**
   * `event`: its create was told (at `since`); `read`: found by a read, so its delete may have gone untold (it
   * was there before the watch, or a gap hid it) until a later read confirms or drops it.
   */
  source: 'event' | 'read';
  since: number;
  /** The owner session as a read gave it (the rules of a Curator read/write lock compare owners). */
  owner?: bigint;
  /** Its intervals so far: what a later read tells of it (session, client, label) is attached to all of them. */
  intervals: HistoryInterval[];
}

/** Deleted members remembered per queue at most (a read older than the delete may still list them). */
const MAX_GONE = 1000;

export class FollowedQueue {
  readonly members = new Map<string, Member>();
  /**
   * Paths deleted as told, with their intervals: a read older than the delete that still lists one does not bring
   * it back, and what it tells of the node (session, label) still reaches the intervals.
   */
  readonly gone = new Map<string, HistoryInterval[]>();

  constructor(readonly path: string, public recipe: RecipeId, public family: Family) {}

  /**
   * Participants in queue order, from the member names. The recipe is recognised again from the names, as a fresh
   * read does (a kazoo lock gains its first reader); an empty queue keeps its own.
   */
  participants(): Participant[] {
    const nodes: QueueNode[] = [];
    for (const m of this.members.values()) nodes.push({ name: m.name, path: m.path, ctime: m.since, owner: m.owner ?? 0n });
    const recognition = nodes.length > 0 ? recognizeQueue(nodes.map((n) => n.name), this.path) : undefined;
    if (recognition && followsNames(recognition.recipe)) {
      this.recipe = recognition.recipe;
      this.family = recognition.family;
    }
    return participantsOf(this.recipe, this.family, nodes);
  }

  remove(member: Member): void {
    this.members.delete(member.path);
    this.gone.set(member.path, member.intervals);
    if (this.gone.size > MAX_GONE) this.gone.delete(this.gone.keys().next().value as string);
  }

  /** A read that no longer lists a deleted path: no later read will (its raw only gets newer). */
  forgetUnlisted(listed: ReadonlySet<string>): void {
    for (const path of this.gone.keys()) if (!listed.has(path)) this.gone.delete(path);
  }
}

/** Folders whose names say they belong to a semaphore (its leases or its internal lock): left to the analyses. */
function semaphorePart(path: string): boolean {
  const name = baseName(path);
  return name === 'leases' || name === 'locks' || name.endsWith('-__lock__');
}

/**
 * A queue that appears after the recorder began following (no read has shown it yet): a created node whose name a
 * lock or election library writes, in a folder no read called anything else. Its members so far are all told.
 */
export function newQueueFor(nodePath: string, queues: ReadonlyMap<string, FollowedQueue>, readOnly: ReadonlySet<string>): FollowedQueue | undefined {
  const folder = parentPath(nodePath);
  if (folder === undefined || readOnly.has(folder) || semaphorePart(folder)) return undefined;
  // A node below a member (a child of a lock node) is not a contender.
  const above = parentPath(folder);
  if (above !== undefined && queues.get(above)?.members.has(folder)) return undefined;
  const recognition = recognizeQueue([baseName(nodePath)], folder);
  if (!recognition || !followsNames(recognition.recipe)) return undefined;
  return new FollowedQueue(folder, recognition.recipe, recognition.family);
}
