// The order a pipelined crawl reads a subtree in: the root, then depth first, children in the order they were
// listed. Only the frontier is kept (each listed parent's names and how far it got), not the tree.
import { joinPath } from '../paths';

export class DepthFirstPaths {
  private rootGiven = false;
  private readonly frontier: { parent: string; names: readonly string[]; next: number }[] = [];

  constructor(private readonly root: string) {}

  /** The children of `parent` as listed: they come next, before the rest of the frontier. */
  add(parent: string, names: readonly string[]): void {
    if (names.length > 0) this.frontier.push({ parent, names, next: 0 });
  }

  /** The next path to read, or undefined when every path given so far has been handed out. */
  next(): string | undefined {
    if (!this.rootGiven) {
      this.rootGiven = true;
      return this.root;
    }
    while (this.frontier.length > 0) {
      const top = this.frontier[this.frontier.length - 1];
      if (top.next < top.names.length) return joinPath(top.parent, top.names[top.next++]);
      this.frontier.pop();
    }
    return undefined;
  }
}
