// What editing adds to the window: the znode file system, the Search Results view and report documents.
import * as vscode from 'vscode';
import type { ConnectionManager } from '../core/connectionManager';
import type { ZnodeTreeProvider } from '../core/tree/znodeTreeProvider';
import { ZnodeFileSystem } from './znodeFileSystem';
import { ZNODE_SCHEME } from './znodeUriPath';
import { SERVER_COPY_SCHEME, ServerCopies } from './serverCopy';
import { SearchItem, SearchResultsProvider } from '../search/searchResults';
import { ShownMessage, shownFailures, shownMessages } from '../common/notifier';
import { REPORT_SCHEME, ReportDocuments } from '../common/reports';

export interface WriteViews {
  readonly znodeFs: ZnodeFileSystem;
  readonly searchResults: SearchResultsProvider;
  readonly reports: ReportDocuments;
  readonly serverCopies: ServerCopies;
  /** Error notifications shown to the user, and all notifications and status messages, for in-host tests. */
  readonly shownFailures: readonly ShownMessage[];
  readonly shownMessages: readonly ShownMessage[];
}

export function createWriteViews(connections: ConnectionManager, tree: ZnodeTreeProvider): WriteViews {
  // A data change seen by an open document (ours or another client's) also redraws the node's size in the explorer.
  const redraw = (connectionId: string, path: string) => {
    const node = tree.treeFor(connectionId)?.nodeAt(path);
    if (node) tree.refresh(node).catch(() => undefined);
  };
  return { znodeFs: new ZnodeFileSystem(connections, redraw), searchResults: new SearchResultsProvider(), reports: new ReportDocuments(), serverCopies: new ServerCopies(connections), shownFailures, shownMessages };
}

export function registerWriteViews(views: WriteViews): vscode.Disposable[] {
  return [
    views.znodeFs, views.searchResults,
    vscode.workspace.registerFileSystemProvider(ZNODE_SCHEME, views.znodeFs, { isCaseSensitive: true }),
    vscode.workspace.registerTextDocumentContentProvider(REPORT_SCHEME, views.reports),
    vscode.workspace.registerTextDocumentContentProvider(SERVER_COPY_SCHEME, views.serverCopies),
    vscode.window.createTreeView<SearchItem>('zooscope.searchResults', { treeDataProvider: views.searchResults }),
  ];
}
