// Search: nodes under a path by name or by data, listed in the Search Results view.
import * as vscode from 'vscode';
import { Command } from '../core/commandIds';
import { registerCommands, withPresets } from '../core/commands';
import type { Core, Registered } from '../core/core';
import { search, SearchPreset } from './searchCommand';
import { SearchItem, SearchResultsProvider } from './searchResults';

export interface SearchParts {
  readonly searchResults: SearchResultsProvider;
}

/** Search with its answers given (only for the test API). */
export interface SearchCommands {
  search(target: unknown, preset?: SearchPreset): Promise<Awaited<ReturnType<typeof search>>>;
}

export function register(_context: vscode.ExtensionContext, core: Core): Registered<undefined, SearchParts & { commands: SearchCommands }> {
  const searchResults = new SearchResultsProvider();
  const context = { ...core, searchResults };
  return {
    api: undefined,
    parts: { searchResults, commands: { search: withPresets(Command.search, (target: unknown, preset?: SearchPreset) => search(context, target, preset)) } },
    disposables: [
      searchResults,
      vscode.window.createTreeView<SearchItem>('zooscope.searchResults', { treeDataProvider: searchResults }),
      ...registerCommands({
        [Command.search]: (target) => search(context, target),
        [Command.clearSearchResults]: () => searchResults.clear(),
      }),
    ],
  };
}
