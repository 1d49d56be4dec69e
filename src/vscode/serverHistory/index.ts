// Server history: the past read from the servers' own transaction logs and snapshots (a member's data directory, or
// a copy of it): a node's every version and who removed it, a lock's history after the fact, the tree at a moment
// compared with now. Where the logs are is chosen once per connection ("Choose Where the Server Logs Are…": folders
// here, or the members over SSH) and remembered.
import * as vscode from 'vscode';
import { SideDocuments } from '../common/dataDiffDocuments';
import { info } from '../common/notifier';
import { Command } from '../core/commandIds';
import { registerCommands, withPresets } from '../core/commands';
import type { Core, Registered } from '../core/core';
import { pickConnection } from '../core/pickConnection';
import type { CompareApi } from '../compare';
import type { LockQueueApi } from '../lockQueue';
import { lockHistoryFromServerLogs, type LockHistoryPreset } from './lockHistoryCommand';
import { LogFolders, type LogChoice } from './logFolders';
import { compareWithPastMoment, type MomentPreset } from './momentCommand';
import { showNodeServerHistory, type NodeHistoryPreset } from './nodeHistoryCommand';
import { closePastTree, openPastNodeDocument, openTreeAtPastMoment, PAST_NODE_SCHEME, PastNodeDocuments, type PastTreePreset } from './pastTreeCommand';

const PAST_SCHEME = 'zooscope-past';
const t = vscode.l10n.t;

async function chooseLogs(context: Core & { folders: LogFolders }, arg: unknown): Promise<LogChoice | undefined> {
  const connectionId = await pickConnection(context, arg, false);
  if (!connectionId) return undefined;
  const choice = await context.folders.choose(connectionId);
  // Fetching over SSH says itself what it read.
  if (choice?.kind === 'folders') void info(t('Server history of {0} reads {1}.', context.store.get(connectionId)?.name ?? connectionId, choice.folders.join(', ')));
  return choice;
}

type Context = Parameters<typeof showNodeServerHistory>[0] & { lockQueue: LockQueueApi; compare: CompareApi };

function presetCommands(context: Context) {
  return {
    showNodeServerHistory: withPresets(Command.showNodeServerHistory, (target: unknown, preset?: NodeHistoryPreset) => showNodeServerHistory(context, target, preset)),
    lockHistoryFromServerLogs: withPresets(Command.lockHistoryFromServerLogs, (target: unknown, preset?: LockHistoryPreset) => lockHistoryFromServerLogs(context, target, preset)),
    compareWithPastMoment: withPresets(Command.compareWithPastMoment, (target: unknown, preset?: MomentPreset) => compareWithPastMoment(context, target, preset)),
    openTreeAtPastMoment: withPresets(Command.openTreeAtPastMoment, (target: unknown, preset?: PastTreePreset) => openTreeAtPastMoment(context, target, preset)),
  };
}

export type ServerHistoryCommands = ReturnType<typeof presetCommands>;

export function register(context: vscode.ExtensionContext, core: Core, lockQueue: LockQueueApi, compare: CompareApi): Registered<undefined, { commands: ServerHistoryCommands }> {
  const sides = new SideDocuments(PAST_SCHEME);
  const feature: Context = { ...core, folders: new LogFolders(context.workspaceState, core, context.globalStorageUri.fsPath), sides, lockQueue, compare };
  return {
    api: undefined,
    parts: { commands: presetCommands(feature) },
    disposables: [
      vscode.workspace.registerTextDocumentContentProvider(PAST_SCHEME, sides),
      vscode.workspace.registerTextDocumentContentProvider(PAST_NODE_SCHEME, new PastNodeDocuments(core)),
      ...registerCommands({
        [Command.chooseServerLogFolders]: (target) => chooseLogs(feature, target),
        [Command.showNodeServerHistory]: (target) => showNodeServerHistory(feature, target),
        [Command.lockHistoryFromServerLogs]: (target) => lockHistoryFromServerLogs(feature, target),
        [Command.compareWithPastMoment]: (target) => compareWithPastMoment(feature, target),
        [Command.openTreeAtPastMoment]: (target) => openTreeAtPastMoment(feature, target),
        [Command.closePastTree]: (target) => closePastTree(core, target),
        [Command.showPastNodeDetails]: (target) => openPastNodeDocument(core, 'details', target),
        [Command.openPastNodeData]: (target) => openPastNodeDocument(core, 'data', target),
      }),
    ],
  };
}
