import type * as vscode from 'vscode';
import type { Core } from '../core/core';
import type { HeldLocks } from './heldLocks';
import type { HeldLocksElement, HeldLocksProvider } from './heldLocksView';

/** What the held-lock commands work with: the core, the window's locks and the Held Locks view. */
export interface HeldLocksContext extends Core {
  readonly heldLocks: HeldLocks;
  readonly heldLocksTree: HeldLocksProvider;
  readonly heldLocksView: vscode.TreeView<HeldLocksElement>;
}
