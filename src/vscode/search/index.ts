// Search: nodes under a path by name or by data, listed in the Search Results view.
import * as vscode from 'vscode';
import { Command } from '../core/commandIds';
import { registerCommands, withContext } from '../core/commands';
import type { Core, Registered } from '../core/core';
import { search } from './searchCommand';
import { SearchItem, SearchResultsProvider } from './searchResults';

export interface SearchParts {
  readonly searchResults: SearchResultsProvider;
}

export function register(_context: vscode.ExtensionContext, core: Core): Registered<undefined, SearchParts> {
  const searchResults = new SearchResultsProvider();
  const context = { ...core, searchResults };
  return {
    api: undefined,
    parts: { searchResults },
    disposables: [
      searchResults,
      vscode.window.createTreeView<SearchItem>('zooscope.searchResults', { treeDataProvider: searchResults }),
      ...registerCommands({
        [Command.search]: withContext(context, search),
        [Command.clearSearchResults]: () => searchResults.clear(),
      }),
    ],
  };
}
