// Ensemble: each server's health as the servers report it, per saved connection; whether the members agree, and a
// path as each member serves it.
import * as vscode from 'vscode';
import { Command } from '../core/commandIds';
import { registerCommands } from '../core/commands';
import type { Core, Registered } from '../core/core';
import type { EnsembleNode } from './ensembleItems';
import { readEnsembleConfig } from '../../zk/servers/ensembleConfig';
import { EnsembleProvider } from './ensembleProvider';
import { checkMembersAgree } from './checkMembersAgreeCommand';
import { comparePathAcrossMembersCommand } from './comparePathCommand';
import { dialerOf, tlsOf } from './memberAccess';
import { allowedUnnamedMembers } from './unnamedMembers';

export interface EnsembleParts {
  readonly ensemble: EnsembleProvider;
  readonly ensembleView: vscode.TreeView<EnsembleNode>;
}

export function register(_context: vscode.ExtensionContext, core: Core): Registered<undefined, EnsembleParts> {
  const ensemble = new EnsembleProvider(core.store, async (id) => {
    const live = core.connections.get(id);
    return live && core.connections.state(id) === 'connected' ? readEnsembleConfig(live.session) : undefined;
  }, (id) => tlsOf(core, id), (id) => dialerOf(core, id), allowedUnnamedMembers);
  const ensembleView = vscode.window.createTreeView<EnsembleNode>('zooscope.ensemble', { treeDataProvider: ensemble });
  return {
    api: undefined,
    parts: { ensemble, ensembleView },
    disposables: [
      ensemble, ensembleView, ensemble.attach(ensembleView),
      ...registerCommands({
        [Command.refreshEnsemble]: () => ensemble.refresh(true),
        [Command.checkMembersAgree]: (target) => checkMembersAgree(core, target),
        [Command.comparePathAcrossMembers]: (target) => comparePathAcrossMembersCommand(core, target),
      }),
    ],
  };
}
