// Explorer: the znode tree's commands (go to, filter, refresh, copy, show more), Show Details, and the view's
// selection and collapse events. The tree itself is part of the core: every feature reveals and refreshes in it.
import * as vscode from 'vscode';
import { isPathNode } from '../../zk/tree/treeNodes';
import { log } from '../common/log';
import { Command } from '../core/commandIds';
import { registerCommands, withContext } from '../core/commands';
import type { Core, Registered } from '../core/core';
import { DETAILS_SCHEME, DetailsProvider } from './detailsDocument';
import { clearFilter, copyPath, filterChildren, goToPath, refresh, showDetails, showMore } from './navigationCommands';

export function register(_context: vscode.ExtensionContext, core: Core): Registered {
  const details = new DetailsProvider(core.connections);
  return {
    api: undefined,
    parts: {},
    disposables: [
      details,
      vscode.workspace.registerTextDocumentContentProvider(DETAILS_SCHEME, details),
      core.view.onDidCollapseElement((e) => core.tree.onCollapsed(e.element)),
      core.view.onDidChangeSelection((e) => { const n = e.selection[0]; if (isPathNode(n)) core.statusBar.setActive(n.connectionId); }),
      ...registerCommands({
        [Command.refresh]: withContext(core, refresh),
        [Command.refreshAll]: () => core.tree.refreshAll(),
        [Command.copyPath]: withContext(core, copyPath),
        [Command.goToPath]: withContext(core, goToPath),
        [Command.filterChildren]: withContext(core, filterChildren),
        [Command.clearFilter]: withContext(core, clearFilter),
        [Command.showDetails]: withContext(core, showDetails),
        [Command.showMore]: withContext(core, showMore),
        [Command.showLog]: () => log().show(),
      }),
    ],
  };
}
