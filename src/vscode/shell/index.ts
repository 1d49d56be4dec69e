// zkCli in the editor: Open ZooKeeper Shell (a pseudoterminal running `zooscope shell`'s shell on a connection's
// session, starting at a node), quotas (Set Quota…, Remove Quota; the marks and tooltips are the tree's, in core),
// and Sync and Refresh for sessions on a lagging follower.
import * as vscode from 'vscode';
import { isPathNode } from '../../zk/tree/treeNodes';
import { visibleText } from '../../shared/visibleText';
import { Command } from '../core/commandIds';
import { registerCommands, withContext, withPresets } from '../core/commands';
import type { Core, Registered } from '../core/core';
import { pickConnection } from '../core/pickConnection';
import { explicitTarget, nodeTarget } from '../core/targets';
import { GivenLimits, removeQuotaCommand, setQuotaCommand } from './quotaCommands';
import { ShellTerminal } from './shellTerminal';
import { syncAndRefresh } from './syncCommand';

const t = vscode.l10n.t;

export interface ShellParts {
  /** The shells opened in this window, newest last (closed ones removed). */
  readonly shellTerminals: readonly ShellTerminal[];
}

/** Options a test passes: where the arrow-key history is kept (so tests leave ~/.cache alone). */
export interface OpenShellOptions {
  historyFile?: string;
}

async function openShell(core: Core, terminals: ShellTerminal[], arg: unknown, options: OpenShellOptions = {}): Promise<ShellTerminal | undefined> {
  const given = explicitTarget(arg) ?? (arg === undefined ? nodeTarget(core, undefined) : undefined);
  const connectionId = given?.connectionId ?? await pickConnection(core, arg, false);
  if (!connectionId) return undefined;
  const path = given && isPathNode(arg) && arg.kind === 'connection' ? '/' : given?.path ?? '/';
  const live = core.connections.get(connectionId) ?? await core.connections.connect(connectionId);
  if (!live) return undefined;
  const pty = new ShellTerminal(core, live, path, options.historyFile);
  terminals.push(pty);
  const terminal = vscode.window.createTerminal({
    name: visibleText(live.saved.readOnly ? t('ZooKeeper Shell (read-only): {0}', live.saved.name) : t('ZooKeeper Shell: {0}', live.saved.name)), pty, iconPath: new vscode.ThemeIcon('terminal'),
  });
  const sub = pty.onDidClose(() => {
    sub.dispose();
    terminals.splice(terminals.indexOf(pty), 1);
  });
  terminal.show();
  return pty;
}

/** The shell with its history file given, and Set Quota with its limits given: only for the test API. */
function presetCommands(core: Core, terminals: ShellTerminal[]) {
  return {
    openShell: withPresets(Command.openShell, (target: unknown, options?: OpenShellOptions) => openShell(core, terminals, target, options)),
    setQuota: withPresets(Command.setQuota, (target: unknown, given?: GivenLimits) => setQuotaCommand(core, target, given)),
  };
}

export type ShellCommands = ReturnType<typeof presetCommands>;

export function register(_context: vscode.ExtensionContext, core: Core): Registered<undefined, ShellParts & { commands: ShellCommands }> {
  const terminals: ShellTerminal[] = [];
  return {
    api: undefined,
    parts: { shellTerminals: terminals, commands: presetCommands(core, terminals) },
    disposables: registerCommands({
      [Command.openShell]: (target) => openShell(core, terminals, target),
      [Command.setQuota]: (target) => setQuotaCommand(core, target),
      [Command.removeQuota]: withContext(core, removeQuotaCommand),
      [Command.syncAndRefresh]: withContext(core, syncAndRefresh),
    }),
  };
}
