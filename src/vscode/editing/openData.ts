// "Open Data" and "Reopen as Text / Hex / Base64": a znode's data in a real editor (see znodeFileSystem.ts).
import * as vscode from 'vscode';
import type { Core } from '../core/core';
import { showWriteFailure } from '../core/failures';
import { liveWriter } from '../core/liveWriter';
import { nodeTargetOrAsk } from '../core/targets';
import { DataView, defaultView, guessLanguage } from '../common/dataCodec';
import { znodeUri } from './znodeFileSystem';

const t = vscode.l10n.t;

/** How the editor opens: Open Data keeps it and focuses it; a click's preview is replaced by the next and leaves focus. */
export interface OpenHow {
  preview: boolean;
  preserveFocus: boolean;
}

/** Opens the node's data: text (language guessed) when it is UTF-8 text, else hex, unless `view` says. */
export async function openData(core: Core, arg?: unknown, view?: DataView,
  how: OpenHow = { preview: false, preserveFocus: false }): Promise<vscode.TextDocument | undefined> {
  const target = await nodeTargetOrAsk(core, arg, t('Open Data'));
  if (!target) return undefined;
  const found = await liveWriter(core.connections, target.connectionId);
  if (!found) return undefined;
  // Read once first: a node we may not read or that is gone gets a message with a way out, not a broken editor.
  const outcome = await found.writer.getData(target.path);
  if (!outcome.ok) {
    void showWriteFailure(target.connectionId, outcome.failure);
    return undefined;
  }
  const chosen = view ?? defaultView(outcome.data);
  let doc = await vscode.workspace.openTextDocument(znodeUri(target.connectionId, target.path, chosen));
  doc = await setLanguage(doc, chosen);
  await vscode.window.showTextDocument(doc, how);
  return doc;
}

/** A language from the content when the node's name gave none; hex and base64 are plain text whatever the name. */
async function setLanguage(doc: vscode.TextDocument, view: DataView): Promise<vscode.TextDocument> {
  const wanted = view === 'text' ? (doc.languageId === 'plaintext' ? guessLanguage(doc.getText()) : doc.languageId) : 'plaintext';
  if (wanted === doc.languageId) return doc;
  try {
    return await vscode.languages.setTextDocumentLanguage(doc, wanted);
  } catch {
    return doc; // a language this VS Code does not know: leave it as it is
  }
}

export const openDataAsText = (core: Core, arg?: unknown) => openData(core, arg, 'text');
export const openDataAsHex = (core: Core, arg?: unknown) => openData(core, arg, 'hex');
export const openDataAsBase64 = (core: Core, arg?: unknown) => openData(core, arg, 'base64');
