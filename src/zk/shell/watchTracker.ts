// The watches this shell's session has set, kept as the Java client's ZKWatchManager keeps them, because zkCli's
// `removewatches` checks them locally first ("No such watcher") and reports each removed kind as an event.
import { EventType } from '../protocol/opcodes';

export type RemovableKind = 'children' | 'data' | 'any';

export class WatchTracker {
  readonly data = new Set<string>();
  readonly children = new Set<string>();
  readonly persistent = new Set<string>();
  readonly persistentRecursive = new Set<string>();

  /** A one-shot watch fires once: forget it as the Java client does. */
  fired(type: number, path: string): void {
    if (type === EventType.created || type === EventType.deleted || type === EventType.dataChanged) this.data.delete(path);
    if (type === EventType.deleted || type === EventType.childrenChanged) this.children.delete(path);
  }

  /** ZKWatchManager.containsWatcher. */
  contains(kind: RemovableKind, path: string): boolean {
    const persistent = this.persistent.has(path) || this.persistentRecursive.has(path);
    if (kind === 'children') return this.children.has(path) || persistent;
    if (kind === 'data') return this.data.has(path) || persistent;
    return this.children.has(path) || this.data.has(path) || persistent;
  }

  /** ZKWatchManager.removeWatcher: the event types to report, in the order the shell prints them. */
  remove(kind: RemovableKind, path: string): string[] | undefined {
    const events: string[] = [];
    if ((kind === 'children' || kind === 'any') && this.children.delete(path)) events.push('ChildWatchRemoved');
    if ((kind === 'data' || kind === 'any') && this.data.delete(path)) events.push('DataWatchRemoved');
    if (kind === 'any') {
      const a = this.persistent.delete(path);
      const b = this.persistentRecursive.delete(path);
      if (a || b) events.push('PersistentWatchRemoved');
    }
    return events.length ? events : undefined;
  }

  /**
   * Whether an event on `path` is for a watch this shell set (one-shot, persistent, or recursive above it). A shell
   * on a shared session sees the notifications of its owner's watches too, and prints only its own.
   */
  isOwnEvent(type: number, path: string): boolean {
    if (this.persistent.has(path)) return true;
    for (const root of this.persistentRecursive) if (root === '/' || path === root || path.startsWith(root + '/')) return true;
    if (type === EventType.childrenChanged) return this.children.has(path);
    if (type === EventType.deleted) return this.children.has(path) || this.data.has(path);
    return this.data.has(path);
  }

  clear(): void {
    this.data.clear();
    this.children.clear();
    this.persistent.clear();
    this.persistentRecursive.clear();
  }
}

/** Watcher.Event.EventType names. */
export function eventTypeName(type: number): string {
  switch (type) {
    case EventType.none: return 'None';
    case EventType.created: return 'NodeCreated';
    case EventType.deleted: return 'NodeDeleted';
    case EventType.dataChanged: return 'NodeDataChanged';
    case EventType.childrenChanged: return 'NodeChildrenChanged';
    case 5: return 'DataWatchRemoved';
    case 6: return 'ChildWatchRemoved';
    case 7: return 'PersistentWatchRemoved';
    default: return `Unknown(${type})`;
  }
}
