// Watch Census: who watches what on every member of a connection, the hidden child watches, herd risk per lock queue
// (src/zk/census). Sorted and filtered from the view's title bar; paths reveal in the explorer, locks open their panel.
import * as vscode from 'vscode';
import { Command } from '../core/commandIds';
import { registerCommands, runCommand } from '../core/commands';
import type { Core, Registered } from '../core/core';
import { revealWithAncestors } from '../core/reveal';
import { info } from '../common/notifier';
import { input } from '../common/quickInput';
import { CensusNode, CensusProvider } from './censusProvider';
import { takeWatchCensus } from './takeCensusCommand';

const t = vscode.l10n.t;

export interface WatchCensusParts {
  readonly census: CensusProvider;
  readonly censusView: vscode.TreeView<CensusNode>;
}

/** What a census row reveals: a server path, or (`inTree`) a path the explorer names already (a waiter's node). */
interface CensusPathTarget { path: string; inTree?: boolean }

const isCensusPathTarget = (arg: unknown): arg is CensusPathTarget => !!arg && typeof (arg as CensusPathTarget).path === 'string';

async function revealCensusPath(core: Core, provider: CensusProvider, target: unknown): Promise<void> {
  const shown = provider.shown;
  if (!shown || !isCensusPathTarget(target)) return;
  const { path } = target;
  const treePath = target.inTree ? path : provider.treePath(path);
  const node = treePath === undefined ? undefined : await revealWithAncestors(core, shown.connectionId, treePath);
  if (!node) void info(t('{0} is not in the tree of {1} (gone, or outside its chroot).', path, shown.connectionName));
}

export function register(_context: vscode.ExtensionContext, core: Core): Registered<undefined, WatchCensusParts> {
  const census = new CensusProvider();
  const censusView = vscode.window.createTreeView<CensusNode>('zooscope.watchCensus', { treeDataProvider: census });
  censusView.message = t('No census yet: Take Watch Census from the title bar.');
  const shownMessage = () => {
    const shown = census.shown;
    censusView.message = !shown ? t('No census yet: Take Watch Census from the title bar.')
      : census.filter !== undefined ? t('{0}, filtered by "{1}"', new Date(shown.census.takenAt).toLocaleString(vscode.env.language), census.filter)
        : new Date(shown.census.takenAt).toLocaleString(vscode.env.language);
  };
  return {
    api: undefined,
    parts: { census, censusView },
    disposables: [
      census, censusView, census.onDidChangeTreeData(shownMessage),
      ...registerCommands({
        [Command.takeWatchCensus]: (target) => takeWatchCensus(core, census, target),
        [Command.sortWatchCensus]: () => census.setSort(census.sort === 'count' ? 'name' : 'count'),
        [Command.filterWatchCensus]: async () => {
          const filter = await input({ title: t('Filter the Watch Census'), prompt: t('Show the sessions, paths and lock queues whose text holds this'), value: census.filter ?? '' });
          if (filter !== undefined) census.setFilter(filter);
        },
        [Command.clearWatchCensusFilter]: () => census.setFilter(undefined),
        [Command.revealCensusPath]: (target) => revealCensusPath(core, census, target),
        [Command.openCensusLock]: (lock) => {
          const shown = census.shown;
          if (shown && typeof lock === 'string') return runCommand(Command.showLockQueue, { connectionId: shown.connectionId, path: lock });
          return undefined;
        },
      }),
    ],
  };
}
