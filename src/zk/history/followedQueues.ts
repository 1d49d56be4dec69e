// The queues a recorder follows from the server's events, by path and by the folders their members are in, so a
// told create or delete finds its queue (members.ts holds each queue's members and rules).
import type { RecipeId } from '../../shared/lockAnalysis';
import { recognizeQueue } from '../analysis/recipes';
import { parentPath } from '../paths';
import { FollowedQueue, newQueueFor } from './members';

export class FollowedQueues {
  private readonly byPath = new Map<string, FollowedQueue>();
  private readonly byDir = new Map<string, FollowedQueue>();

  has(path: string): boolean {
    return this.byPath.has(path);
  }

  get(path: string): FollowedQueue | undefined {
    return this.byPath.get(path);
  }

  /** A copy: a queue may be forgotten while the caller goes through them. */
  all(): FollowedQueue[] {
    return [...this.byPath.values()];
  }

  /** The followed queue at `path`, followed from now on if it was not (its family recognised from `names`). */
  follow(path: string, recipe: RecipeId, names: string[]): FollowedQueue {
    let queue = this.byPath.get(path);
    if (!queue) {
      queue = new FollowedQueue(path, recipe, recognizeQueue(names, path)?.family ?? 'unknown');
      this.track(queue);
    }
    return queue;
  }

  /** A queue that `nodePath`'s create starts (see newQueueFor), followed from now on. */
  followNew(nodePath: string): FollowedQueue | undefined {
    const queue = newQueueFor(nodePath, this.byPath, this.byDir);
    if (queue) this.track(queue);
    return queue;
  }

  forget(queue: FollowedQueue): void {
    this.byPath.delete(queue.path);
    for (const dir of queue.dirs) if (this.byDir.get(dir) === queue) this.byDir.delete(dir);
  }

  /** The followed queue `path` is a member of (a child of one of its folders, or a fixed node itself). */
  queueOfNode(path: string): FollowedQueue | undefined {
    const fixed = this.byPath.get(path);
    if (fixed?.shape === 'fixed') return fixed;
    const folder = parentPath(path);
    return folder === undefined ? undefined : this.byDir.get(folder);
  }

  private track(queue: FollowedQueue): void {
    this.byPath.set(queue.path, queue);
    for (const dir of queue.dirs) this.byDir.set(dir, queue);
  }
}
