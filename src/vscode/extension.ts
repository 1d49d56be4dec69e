// ZooScope's entry point: the core (connections, tree, status bar) and the features, each registering its own
// views, commands and settings. Feature folders depend on core/ and common/, and on another feature only through
// its index (as the lock-queue panel uses the held locks).
import * as vscode from 'vscode';
import { recordShownMessages } from './common/notifier';
import { log } from './common/log';
import * as compare from './compare';
import * as connections from './connections';
import { learnRowMenuCommands } from './core/commands';
import { createCore } from './core/core';
import * as editing from './editing';
import * as ensemble from './ensemble';
import * as explorer from './explorer';
import * as heldLocks from './heldLocks';
import * as lockQueue from './lockQueue';
import * as nodes from './nodes';
import * as search from './search';
import * as serverHistory from './serverHistory';
import * as shell from './shell';
import * as terminal from './terminal';
import { TestApi, testApi } from './testApi';
import * as transfer from './transfer';
import * as watchCensus from './watchCensus';

export function activate(context: vscode.ExtensionContext): TestApi | undefined {
  const started = Date.now();
  const underTest = context.extensionMode === vscode.ExtensionMode.Test;
  const shown = underTest ? recordShownMessages() : undefined;
  learnRowMenuCommands(context.extension.packageJSON as Parameters<typeof learnRowMenuCommands>[0]);
  const core = createCore(context);
  const held = heldLocks.register(context, core);
  const locks = lockQueue.register(context, core, held.api);
  const comparing = compare.register(context, core);
  const features = [
    connections.register(context, core),
    explorer.register(context, core),
    editing.register(context, core),
    nodes.register(context, core),
    search.register(context, core),
    transfer.register(context, core, comparing.api),
    comparing,
    held,
    locks,
    serverHistory.register(context, core, locks.api, comparing.api),
    ensemble.register(context, core),
    shell.register(context, core),
    terminal.register(context),
    watchCensus.register(context, core),
  ];
  for (const feature of features) context.subscriptions.push(...feature.disposables);
  log().info(`ZooScope activated in ${Date.now() - started} ms (${vscode.env.appName}${vscode.env.remoteName ? `, remote ${vscode.env.remoteName}` : ''})`);
  if (!shown) return undefined;
  return testApi(core, features.map((f) => f.parts), { shownMessages: shown.all, shownFailures: shown.failures });
}

export function deactivate(): void {
  // Sessions are closed by the disposables above (the servers drop their ephemeral nodes at once).
}
