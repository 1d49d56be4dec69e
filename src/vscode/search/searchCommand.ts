// "Search…" on a node (or a connection's root): by name / full path (glob or /regex/) and/or by data content,
// with progress and cancel; matches stream into the Search Results view.
import * as vscode from 'vscode';
import { compileSearch, isSearchProblem, SearchQuery, searchTree } from '../../zk/search/search';
import { pickConnection } from '../core/pickConnection';
import { log } from '../common/log';
import { describeSearchProblem } from '../common/failureTexts';
import type { SearchContext } from './searchContext';
import { showProblem } from '../core/failures';
import { liveWriter } from '../core/liveWriter';
import { withCancellableProgress } from '../common/progress';
import { nodeTarget } from '../core/targets';
import type { SearchRun } from './searchResults';
import { input } from '../common/quickInput';
import { ViewCommand } from '../core/commandIds';

const t = vscode.l10n.t;

/** Answers given up front (automation, tests). */
export type SearchPreset = Omit<SearchQuery, 'root'>;

/**
 * What the user typed as a path pattern, as the ZooKeeper layer reads it. `/…/flags` with valid flags is a regex (on
 * the full path when its source holds a "/": a name never does); anything else is a glob, on the full path when it
 * holds a "/". The layer would read a full-path glob such as `/app/x/db` as the regex `app/x` with flags `db`, so its
 * first "/" is written as the class `[/]`, which matches the same.
 */
export function pathPattern(text: string, matchFullPath?: boolean): { path: string; matchFullPath: boolean } {
  const regex = /^\/(.*)\/([dgimsuvy]*)$/s.exec(text);
  if (regex) return { path: text, matchFullPath: matchFullPath ?? regex[1].includes('/') };
  return { path: text.startsWith('/') ? `[/]${text.slice(1)}` : text, matchFullPath: matchFullPath ?? text.includes('/') };
}

export async function search(core: SearchContext, arg?: unknown, preset?: SearchPreset): Promise<SearchRun | undefined> {
  // A connection id (palette, automation) means that connection's root, not the explorer's selection.
  const known = typeof arg === 'string' ? undefined : nodeTarget(core, arg);
  const connectionId = known?.connectionId ?? await pickConnection(core, arg, false);
  if (!connectionId) return undefined;
  const root = known?.path ?? '/';
  const asked = preset ? { ...preset, root } : await ask(root);
  if (!asked) return undefined;
  const query = asked.path ? { ...asked, ...pathPattern(asked.path, asked.matchFullPath) } : asked;
  const compiled = compileSearch(query);
  if (isSearchProblem(compiled)) {
    showProblem(describeSearchProblem(compiled));
    return undefined;
  }
  const found = await liveWriter(core.connections, connectionId);
  if (!found) return undefined;
  const description = [asked.path && t('path {0}', asked.path), asked.content && t('data contains {0}', asked.content)].filter(Boolean).join(' · ');
  const run: SearchRun = { connectionId, connectionName: found.live.saved.name, root, description, matches: [], visited: 0 };
  const results = core.searchResults;
  results.start(run);
  void vscode.commands.executeCommand(ViewCommand.focusSearchResults);
  await withCancellableProgress(t('Searching {0}…', root), async (signal, report) => {
    const outcome = await searchTree(found.live.session, query, (match) => {
      run.matches.push(match);
      results.redraw();
    }, {
      signal,
      onProgress: ({ visited }) => {
        run.visited = visited;
        report(t('{0} nodes, {1} matches', visited, run.matches.length));
        results.redraw();
      },
    });
    if (outcome.ok) run.summary = outcome.summary;
  }, 'zooscope.searchResults');
  results.redrawNow();
  log().info(`search ${root} (${description}): ${run.matches.length} matches in ${run.summary?.visited ?? run.visited} nodes`);
  return run;
}

async function ask(root: string): Promise<SearchQuery | undefined> {
  const path = await input({
    title: t('Search under {0}', root),
    prompt: t('Node names to find: a glob (lock-*), a glob on the full path when it holds a "/" (/app/*/config), or a /regex/. Leave empty to match any name.'),
    validateInput: (v) => {
      const problem = v ? compileSearch({ root, ...pathPattern(v) }) : undefined;
      return problem && isSearchProblem(problem) ? describeSearchProblem(problem) : undefined;
    },
  });
  if (path === undefined) return undefined;
  const content = await input({
    title: t('Search under {0}', root),
    prompt: t('Text to find in the data (case-sensitive), or a /regex/i. Leave empty to search by name only.'),
    validateInput: (v) => {
      const problem = compileSearch({ root, ...(path ? pathPattern(path) : {}), content: v });
      return isSearchProblem(problem) ? describeSearchProblem(problem) : undefined;
    },
  });
  if (content === undefined) return undefined;
  return { root, path: path || undefined, content: content || undefined };
}
