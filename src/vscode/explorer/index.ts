// Explorer: the znode tree's commands (go to, filter, refresh, copy, show more), Show Details, and the view's
// selection and collapse events. The tree itself is part of the core: every feature reveals and refreshes in it.
import * as vscode from 'vscode';
import { isPathNode } from '../../zk/tree/treeNodes';
import { log } from '../common/log';
import { Command } from '../core/commandIds';
import { registerCommands, withContext, withPresets } from '../core/commands';
import type { Core, Registered } from '../core/core';
import { DETAILS_SCHEME, DetailsProvider } from './detailsDocument';
/** A node's details as Show Details writes them (the tree at a past moment writes its nodes' the same way). */
export { renderDetails } from './detailsDocument';
import { clearFilter, copyPath, filterChildren, goToPath, refresh, showDetails, showMore } from './navigationCommands';

/** Go to Path and Filter Children with the path or filter given instead of asked: only for the test API. */
function presetCommands(core: Core) {
  return {
    goToPath: withPresets(Command.goToPath, (target: unknown, typedPath?: string) => goToPath(core, target, typedPath)),
    filterChildren: withPresets(Command.filterChildren, (target: unknown, text?: string) => filterChildren(core, target, text)),
  };
}

export type ExplorerCommands = ReturnType<typeof presetCommands>;

export function register(_context: vscode.ExtensionContext, core: Core): Registered<undefined, { commands: ExplorerCommands }> {
  const details = new DetailsProvider(core.connections, (id, path, mzxid, data, context) => core.tree.decodedMarks.remember(id, path, mzxid, data, context));
  return {
    api: undefined,
    parts: { commands: presetCommands(core) },
    disposables: [
      details,
      vscode.workspace.registerTextDocumentContentProvider(DETAILS_SCHEME, details),
      core.view.onDidCollapseElement((e) => core.tree.onCollapsed(e.element)),
      core.view.onDidChangeSelection((e) => { const n = e.selection[0]; if (isPathNode(n)) core.statusBar.setActive(n.connectionId); }),
      ...registerCommands({
        [Command.refresh]: withContext(core, refresh),
        [Command.refreshAll]: () => core.tree.refreshAll(),
        [Command.copyPath]: withContext(core, copyPath),
        [Command.goToPath]: (target) => goToPath(core, target),
        [Command.filterChildren]: (target) => filterChildren(core, target),
        [Command.clearFilter]: withContext(core, clearFilter),
        [Command.showDetails]: withContext(core, showDetails),
        [Command.showMore]: withContext(core, showMore),
        [Command.showLog]: () => log().show(),
      }),
    ],
  };
}
