// Trees rebuilt from the servers' logs at a past moment are shown beside the connections, under ids of their own.
// They are read-only wherever a command could reach them: a command given one of their nodes (from a menu, a
// keybinding, another extension) runs only if it is one of the few that read them, and no live session is ever
// opened for their ids (the palette's way, through the selection).
import { Command, type CommandId } from './commandIds';

const pastIds = new Set<string>();
let count = 0;

/** A new id for a past tree, never a saved connection's. */
export function newPastTreeId(): string {
  const id = `zooscope.past:${++count}`;
  pastIds.add(id);
  return id;
}

export function forgetPastTreeId(id: string): void {
  pastIds.delete(id);
}

export function isPastTreeId(id: string): boolean {
  return pastIds.has(id);
}

/** The commands that work on a past tree's nodes: they read what the tree holds, and write nothing anywhere. */
export const COMMANDS_ON_PAST_TREES: ReadonlySet<CommandId> = new Set<CommandId>([
  Command.copyPath, Command.showMore, Command.filterChildren, Command.clearFilter,
  Command.showPastNodeDetails, Command.openPastNodeData, Command.closePastTree,
]);

const namesPastTree = (arg: unknown): boolean =>
  !!arg && typeof arg === 'object' && typeof (arg as { connectionId?: unknown }).connectionId === 'string' && pastIds.has((arg as { connectionId: string }).connectionId);

let explorerSelection: () => readonly unknown[] = () => [];

/** Where a command run without arguments (the palette) finds its nodes: the explorer's selection. */
export function followSelection(selection: () => readonly unknown[]): void {
  explorerSelection = selection;
}

/**
 * Whether a command's arguments (its target, the selection) hold a past tree's node; without any, whether the
 * explorer's selection does, for a command that works on it (`onSelection`: one of the rows' menus).
 */
export function holdsPastTarget(args: readonly unknown[], onSelection: boolean): boolean {
  const given = args.filter((arg) => arg !== undefined);
  return (given.length > 0 ? given : onSelection ? explorerSelection() : []).some((arg) => (Array.isArray(arg) ? arg.some(namesPastTree) : namesPastTree(arg)));
}
