// Which tree nodes look like lock queues, judged from the children the tree has listed (so a node is marked once
// it has been expanded). The tree shows the mark (icon, description, contextValue `lockqueue`).
import { looksLikeLockQueue } from '../../../zk/analysis';
import type { RecipeId } from '../../../shared/lockAnalysis';

export class LockQueueMarks {
  private readonly marks = new Map<string, RecipeId>();

  get(connectionId: string, path: string): RecipeId | undefined {
    return this.marks.get(`${connectionId}\n${path}`);
  }

  /** Records what `childNames` say about the node; true when its mark changed (the node needs a redraw). */
  update(connectionId: string, path: string, childNames: readonly string[]): boolean {
    const key = `${connectionId}\n${path}`;
    const recipe = looksLikeLockQueue(childNames);
    const mark = recipe && recipe !== 'unknown' ? recipe : undefined;
    if (this.marks.get(key) === mark) return false;
    if (mark) this.marks.set(key, mark);
    else this.marks.delete(key);
    return true;
  }

  clear(connectionId?: string): void {
    if (!connectionId) return this.marks.clear();
    for (const key of [...this.marks.keys()]) if (key.startsWith(`${connectionId}\n`)) this.marks.delete(key);
  }
}
