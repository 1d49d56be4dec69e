// Ensemble: each server's health as the servers report it, per saved connection.
import * as vscode from 'vscode';
import { Command } from '../core/commandIds';
import { registerCommands } from '../core/commands';
import type { Core, Registered } from '../core/core';
import type { EnsembleNode } from './ensembleItems';
import { readEnsembleConfig } from '../../zk/servers/ensembleConfig';
import { prepareTls } from '../../zk/security/tlsSettings';
import { dialerFor } from '../../zk/tunnel/dialer';
import { EnsembleProvider } from './ensembleProvider';

export interface EnsembleParts {
  readonly ensemble: EnsembleProvider;
  readonly ensembleView: vscode.TreeView<EnsembleNode>;
}

export function register(_context: vscode.ExtensionContext, core: Core): Registered<undefined, EnsembleParts> {
  const ensemble = new EnsembleProvider(core.store, async (id) => {
    const live = core.connections.get(id);
    return live && core.connections.state(id) === 'connected' ? readEnsembleConfig(live.session) : undefined;
  }, async (id) => {
    const live = core.connections.get(id);
    if (live) return live.session.serverTls;
    const saved = core.store.get(id);
    const tls = saved && (await core.store.tlsSettings(saved));
    return tls ? prepareTls(tls) : undefined;
  }, async (id) => {
    // The live session's tunnels' way, else the saved bastion's: never straight to servers behind one.
    const live = core.connections.get(id);
    if (live) return live.session.dialer;
    const saved = core.store.get(id);
    const ssh = saved && (await core.store.sshSettings(saved));
    return ssh ? dialerFor(ssh) : undefined;
  });
  const ensembleView = vscode.window.createTreeView<EnsembleNode>('zooscope.ensemble', { treeDataProvider: ensemble });
  return {
    api: undefined,
    parts: { ensemble, ensembleView },
    disposables: [
      ensemble, ensembleView, ensemble.attach(ensembleView),
      ...registerCommands({ [Command.refreshEnsemble]: () => ensemble.refresh() }),
    ],
  };
}
