// What a refused save offers: Compare with Server (the server's data now, beside the edit) and Save Overwriting
// (writes the edit over the version the server has now, and only that version).
import * as vscode from 'vscode';
import { fail } from '../common/notifier';
import { shown } from '../common/untrustedText';
import type { EditingContext } from './editingContext';
import { serverCopyUri } from './serverCopy';
import { locate } from './znodeFileSystem';
import { ZNODE_SCHEME } from '../common/znodeUriPath';

const t = vscode.l10n.t;

function documentUri(arg: unknown): vscode.Uri | undefined {
  if (arg instanceof vscode.Uri) return arg;
  const active = vscode.window.activeTextEditor?.document.uri;
  return active?.scheme === ZNODE_SCHEME ? active : undefined;
}

export async function compareWithServer(_core: EditingContext, arg?: unknown): Promise<boolean> {
  const uri = documentUri(arg);
  if (!uri) return false;
  const location = locate(uri);
  await vscode.commands.executeCommand('vscode.diff', serverCopyUri(location), uri, shown(t('{0}: server ↔ your edit', location.path)));
  return true;
}

/** Saves the document over the server's current version; false when nothing was saved. */
export async function saveOverwriting(core: EditingContext, arg?: unknown): Promise<boolean> {
  const uri = documentUri(arg);
  if (!uri) return false;
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (!doc) return false;
  const version = await core.znodeFs.allowOverwrite(uri);
  if (version === undefined) {
    void fail(t('{0} no longer exists.', locate(uri).path));
    return false;
  }
  return doc.save();
}
