// The other side of a comparison or the target of a copy: a path on the same connection, a path on another
// saved connection, or (comparisons only) an export file. Presets answer instead of the pickers (tests).
import * as vscode from 'vscode';
import type { CompareSide } from '../../zk/compare';
import { parseExport } from '../../zk/transfer';
import { askZnodePath } from '../common/askZnodePath';
import { describeExportProblem } from '../common/failureTexts';
import { pickItem } from '../common/quickInput';
import type { Core } from '../core/core';
import { showProblem } from '../core/failures';
import { liveWriter } from '../core/liveWriter';
import type { NodeTarget } from '../core/targets';

const t = vscode.l10n.t;

/** A file's `label` names it in titles instead of its file name (a past moment's export: its connection and moment). */
export type SideChoice = { kind: 'live'; connectionId: string; path: string } | { kind: 'file'; file: string; label?: string };

/** Answers given up front: a node (`connectionId` defaults to the source's) or an export file. */
export interface SidePreset {
  connectionId?: string;
  path?: string;
  file?: string;
}

export async function pickSide(core: Core, from: NodeTarget, title: string, allowFile: boolean, preset?: SidePreset): Promise<SideChoice | undefined> {
  if (preset) {
    if (preset.file) return { kind: 'file', file: preset.file };
    return { kind: 'live', connectionId: preset.connectionId ?? from.connectionId, path: preset.path ?? from.path };
  }
  const same = { label: t('A path on this connection'), id: 'same' };
  const other = { label: t('A path on another connection'), id: 'other' };
  const file = { label: t('An export file'), id: 'file' };
  const chosen = await pickItem(allowFile ? [same, other, file] : [same, other], { title });
  if (!chosen) return undefined;
  if (chosen.id === 'file') {
    const uri = (await vscode.window.showOpenDialog({ title, canSelectMany: false, filters: { [t('ZooScope export')]: ['json'] } }))?.[0];
    return uri ? { kind: 'file', file: uri.fsPath } : undefined;
  }
  const connectionId = chosen.id === 'same' ? from.connectionId : await pickOtherConnection(core, from.connectionId, title);
  if (!connectionId) return undefined;
  const path = await askZnodePath(undefined, { title, value: from.path });
  return path === undefined ? undefined : { kind: 'live', connectionId, path };
}

async function pickOtherConnection(core: Core, except: string, title: string): Promise<string | undefined> {
  const others = core.store.list().filter((c) => c.id !== except).map((c) => ({ label: c.name, description: c.connectString, id: c.id }));
  if (others.length === 0) {
    showProblem(t('No other connection is saved yet.'));
    return undefined;
  }
  return (await pickItem(others, { title, placeHolder: t('Choose a ZooKeeper connection') }))?.id;
}

/** The side to read: a live session (connecting when needed) or a parsed export; undefined when it cannot be had. */
export async function openSide(core: Core, choice: SideChoice): Promise<CompareSide | undefined> {
  if (choice.kind === 'live') {
    const found = await liveWriter(core.connections, choice.connectionId);
    return found ? { session: found.live.session, root: choice.path } : undefined;
  }
  let text: string;
  try {
    text = Buffer.from(await vscode.workspace.fs.readFile(vscode.Uri.file(choice.file))).toString('utf8');
  } catch (error) {
    showProblem(t('Cannot read {0}: {1}', choice.file, error instanceof Error ? error.message : String(error)));
    return undefined;
  }
  const parsed = parseExport(text);
  if (!parsed.ok) {
    showProblem(describeExportProblem(choice.file, parsed.problem));
    return undefined;
  }
  return { export: parsed.doc };
}

/** How a side is named in titles: `connection name: /path` or the file's name. */
export function sideLabel(core: Core, choice: SideChoice): string {
  if (choice.kind === 'file') return choice.label ?? vscode.Uri.file(choice.file).path.split('/').pop() ?? choice.file;
  return `${core.store.get(choice.connectionId)?.name ?? choice.connectionId}: ${choice.path}`;
}
