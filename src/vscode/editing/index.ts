// Editing: node data opened as documents of the znode file system (text, hex, base64), saved at the version read,
// and a conflict's Compare / Overwrite.
import * as vscode from 'vscode';
import { Command } from '../core/commandIds';
import { registerCommands, withContext } from '../core/commands';
import type { Core, Registered } from '../core/core';
import { ZNODE_SCHEME } from '../common/znodeUriPath';
import { compareWithServer, saveOverwriting } from './conflictCommands';
import type { EditingContext } from './editingContext';
import { openData, openDataAsBase64, openDataAsHex, openDataAsText } from './openData';
import { NodePreviewer } from './previewNode';
import { SERVER_COPY_SCHEME, ServerCopies } from './serverCopy';
import { ZnodeFileSystem } from './znodeFileSystem';
import { DECODED_SCHEME, DecodedViewProvider, openDataDecoded } from './decodedView';

export interface EditingParts {
  readonly znodeFs: ZnodeFileSystem;
}

export function register(_context: vscode.ExtensionContext, core: Core): Registered<undefined, EditingParts> {
  // A data change seen by an open document (ours or another client's) also redraws the node's size in the explorer.
  const redraw = (connectionId: string, path: string) => {
    const node = core.tree.treeFor(connectionId)?.nodeAt(path);
    if (node) core.tree.refresh(node).catch(() => undefined);
  };
  const znodeFs = new ZnodeFileSystem(core.connections, redraw);
  const serverCopies = new ServerCopies(core.connections);
  const editing: EditingContext = { ...core, znodeFs };
  const previewer = new NodePreviewer(core);
  const decoded = new DecodedViewProvider(core.connections, (id, path, mzxid, data, context) => core.tree.decodedMarks.remember(id, path, mzxid, data, context));
  return {
    api: undefined,
    parts: { znodeFs },
    disposables: [
      znodeFs,
      vscode.workspace.registerFileSystemProvider(ZNODE_SCHEME, znodeFs, { isCaseSensitive: true }),
      vscode.workspace.registerTextDocumentContentProvider(SERVER_COPY_SCHEME, serverCopies),
      decoded,
      vscode.workspace.registerTextDocumentContentProvider(DECODED_SCHEME, decoded),
      ...registerCommands({
        // Only the node: VS Code passes the selection second, which is not a view.
        [Command.openData]: (arg?: unknown) => openData(core, arg),
        [Command.previewNode]: (arg?: unknown) => previewer.click(arg),
        [Command.openDataAsText]: withContext(core, openDataAsText),
        [Command.openDataAsHex]: withContext(core, openDataAsHex),
        [Command.openDataAsBase64]: withContext(core, openDataAsBase64),
        [Command.openDataDecoded]: withContext(core, openDataDecoded),
        [Command.compareWithServer]: withContext(editing, compareWithServer),
        [Command.saveOverwriting]: withContext(editing, saveOverwriting),
      }),
    ],
  };
}
