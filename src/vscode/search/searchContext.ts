import type { Core } from '../core/core';
import type { SearchResultsProvider } from './searchResults';

/** What the search command works with: the core and the Search Results view. */
export interface SearchContext extends Core {
  readonly searchResults: SearchResultsProvider;
}
