// A click on a leaf node previews it, as VS Code's explorer previews a file: its data in a preview editor that the
// next click replaces (focus stays in the tree, so the arrow keys keep working), or its details when it has no
// data. A second click on the same node within a double click's time keeps the editor and moves focus to it.
import * as vscode from 'vscode';
import type { ZnodeNode } from '../../zk/tree/treeNodes';
import { Command } from '../core/commandIds';
import type { Core } from '../core/core';
import { openOnClick } from '../core/settings';
import { openData } from './openData';

/** Two clicks on the same node closer than this are a double click. Generous: the extension host may be busy. */
export const DOUBLE_CLICK_MS = 1500;

export class NodePreviewer {
  private last: { key: string; at: number } | undefined;

  constructor(private readonly core: Core, private readonly now: () => number = Date.now) {}

  /** Returns what was shown: 'data', 'details', or undefined when clicks do not open (setting off, not a node). */
  async click(arg: unknown): Promise<'data' | 'details' | undefined> {
    if (!openOnClick() || !isZnode(arg)) return undefined;
    const node = arg;
    const key = `${node.connectionId}\u0000${node.path}`;
    const at = this.now();
    const double = this.last !== undefined && this.last.key === key && at - this.last.at < DOUBLE_CLICK_MS;
    // A third click starts over: it is the first of the next double click.
    this.last = double ? undefined : { key, at };
    if (node.stat.dataLength === 0) {
      await vscode.commands.executeCommand(Command.showDetails, node);
      if (double) await vscode.commands.executeCommand('workbench.action.keepEditor');
      else await this.core.view.reveal(node, { focus: true, select: false }).then(undefined, () => undefined);
      return 'details';
    }
    await openData(this.core, node, undefined, { preview: !double, preserveFocus: !double });
    return 'data';
  }
}

function isZnode(arg: unknown): arg is ZnodeNode {
  return typeof arg === 'object' && arg !== null && (arg as { kind?: unknown }).kind === 'znode';
}
