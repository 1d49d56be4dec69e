// "Search…" on a node (or a connection's root): by name / full path (glob or /regex/) and/or by data content,
// with progress and cancel; matches stream into the Search Results view.
import * as vscode from 'vscode';
import { compileSearch, isSearchProblem, SearchQuery, searchTree } from '../../zk/search/search';
import { pickConnection } from '../commands/pickConnection';
import { log } from '../log';
import { describeSearchProblem } from '../messages';
import type { Services } from '../services';
import { liveWriter } from '../write/liveWriter';
import { nodeTarget } from '../write/targets';
import type { SearchRun } from './searchResults';

const t = vscode.l10n.t;

/** Answers given up front (automation, tests). */
export type SearchPreset = Omit<SearchQuery, 'root'>;

const isRegex = (text: string) => /^\/.*\/[a-z]*$/s.test(text);

export async function search(services: Services, arg?: unknown, preset?: SearchPreset): Promise<SearchRun | undefined> {
  const known = nodeTarget(services, arg);
  const connectionId = known?.connectionId ?? await pickConnection(services, arg, false);
  if (!connectionId) return undefined;
  const root = known?.path ?? '/';
  const query = preset ? { ...preset, root } : await ask(root);
  if (!query) return undefined;
  const compiled = compileSearch(query);
  if (isSearchProblem(compiled)) {
    void vscode.window.showErrorMessage(describeSearchProblem(compiled));
    return undefined;
  }
  const found = await liveWriter(services.connections, connectionId);
  if (!found) return undefined;
  const description = [query.path && t('path {0}', query.path), query.content && t('data contains {0}', query.content)].filter(Boolean).join(' · ');
  const run: SearchRun = { connectionId, connectionName: found.live.saved.name, root, description, matches: [], visited: 0 };
  const results = services.searchResults;
  results.start(run);
  void vscode.commands.executeCommand('zooscope.searchResults.focus');
  await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: t('Searching {0}…', root), cancellable: true },
    async (progress, token) => {
      const abort = new AbortController();
      token.onCancellationRequested(() => abort.abort());
      const outcome = await searchTree(found.live.session, query, (match) => {
        run.matches.push(match);
        results.redraw();
      }, {
        signal: abort.signal,
        onProgress: ({ visited }) => {
          run.visited = visited;
          progress.report({ message: t('{0} nodes, {1} matches', visited, run.matches.length) });
          results.redraw();
        },
      });
      if (outcome.ok) run.summary = outcome.summary;
    });
  results.redrawNow();
  log().info(`search ${root} (${description}): ${run.matches.length} matches in ${run.summary?.visited ?? run.visited} nodes`);
  return run;
}

async function ask(root: string): Promise<SearchQuery | undefined> {
  const path = await vscode.window.showInputBox({
    title: t('Search under {0}', root),
    prompt: t('Node names to find: a glob (lock-*), a glob on the full path when it holds a "/" (/app/*/config), or a /regex/. Leave empty to match any name.'),
    validateInput: (v) => {
      const problem = v ? compileSearch({ root, path: v }) : undefined;
      return problem && isSearchProblem(problem) ? describeSearchProblem(problem) : undefined;
    },
  });
  if (path === undefined) return undefined;
  const content = await vscode.window.showInputBox({
    title: t('Search under {0}', root),
    prompt: t('Text to find in the data (case-sensitive), or a /regex/i. Leave empty to search by name only.'),
    validateInput: (v) => {
      const problem = compileSearch({ root, path, content: v });
      return isSearchProblem(problem) ? describeSearchProblem(problem) : undefined;
    },
  });
  if (content === undefined) return undefined;
  return { root, path: path || undefined, content: content || undefined, matchFullPath: path !== '' && !isRegex(path) && path.includes('/') };
}
