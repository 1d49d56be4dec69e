// Counts of one read as one in English ("1 node", not "1 nodes"): the texts that can name a single node, path or
// watch, each with a count of 1 and of 2. And plain tooltips of several lines keep their line breaks, while a line
// break inside a value (data) is written out. Pure parts of the VS Code layer, run in the host for vscode.l10n.
import * as assert from 'node:assert';
import type { Anomaly } from '../../../src/shared/lockAnalysis';
import type { DeletePlan } from '../../../src/zk/write';
import type { SearchRun } from '../../../src/vscode/search/searchResults';
import { describeAnomaly } from '../../../src/vscode/lockQueue/webviewTexts';
import { deletePreview } from '../../../src/vscode/nodes/deletePreview';
import { SearchResultsProvider } from '../../../src/vscode/search/searchResults';

function unreadable(count: number): Anomaly {
  const paths = ['/locks/a', '/locks/b'].slice(0, count);
  return { kind: 'unreadable', severity: 'warning', paths, sessions: [], facts: { count, reason: 'NO_AUTH' } };
}

function childWatches(count: number): Anomaly {
  return { kind: 'child-watches-invisible', severity: 'info', paths: ['/locks'], sessions: [], facts: { childWatches: count } };
}

function planWithUnreadable(count: number): DeletePlan {
  return {
    root: '/app', count: 1, paths: ['/app'], versions: [0], samples: ['/app'], foreignEphemerals: [], foreignEphemeralCount: 0,
    ownEphemeralCount: 0,
    crawl: { visited: 1, vanished: 0, unreadable: [], unreadableCount: count, cancelled: false, stoppedEarly: false },
  } as unknown as DeletePlan;
}

function searchTooltips(unreadableCount: number, matches: SearchRun['matches'] = []): string[] {
  const provider = new SearchResultsProvider();
  const run: SearchRun = {
    connectionId: 'counted', connectionName: 'Counted', root: '/app', description: 'name *', matches, visited: 3,
    summary: {
      visited: 3, vanished: 0, unreadable: [{ path: '/app/secret', code: 'noAuth' }], unreadableCount, cancelled: false,
      stoppedEarly: false, matched: 0, truncated: false,
    },
  };
  try {
    provider.start(run);
    return provider.getChildren().map((item) => String(provider.getTreeItem(item).tooltip));
  } finally {
    provider.clear();
    provider.dispose();
  }
}

describe('Counted words', () => {
  it('lock-queue anomalies: one unreadable path, one child watch', () => {
    assert.match(describeAnomaly(unreadable(1)).explanation, /^1 path could not be read \(NO_AUTH\) and is left out: \/locks\/a\./);
    assert.match(describeAnomaly(unreadable(2)).explanation, /^2 paths could not be read \(NO_AUTH\) and are left out: \/locks\/a, \/locks\/b\./);
    assert.match(describeAnomaly(childWatches(1)).explanation, /^The servers hold 1 child watch but cannot say which session set it/);
    assert.match(describeAnomaly(childWatches(2)).explanation, /^The servers hold 2 child watches but cannot say which sessions set them/);
  });

  it('the recursive delete preview: one unreadable node', () => {
    assert.ok(deletePreview(planWithUnreadable(1)).detail.includes('1 node could not be read (no permission): what is below it is unknown, so it will be kept.'));
    assert.ok(deletePreview(planWithUnreadable(2)).detail.includes('2 nodes could not be read (no permission): what is below them is unknown, so they will be kept.'));
  });

  it('the search summary tooltip: one unreadable node, one line each', () => {
    assert.deepStrictEqual(searchTooltips(1)[0].split('\n'), ['Counted', 'name *', '1 node could not be read (no permission): /app/secret']);
    assert.strictEqual(searchTooltips(2)[0].split('\n')[2], '2 nodes could not be read (no permission): /app/secret');
  });

  it('a content match\'s tooltip: the path, then the snippet, whose own line break is written out', () => {
    const stat = undefined as unknown as SearchRun['matches'][number]['stat'];
    const snippet = 'user=app\npassword=[x](command:evil)';
    const [, match] = searchTooltips(0, [{ path: '/app/config', stat, content: { byteOffset: 0, snippet, matchStart: 0, matchLength: 4 } }]);
    assert.strictEqual(match, '/app/config\n\nuser=app[U+000A]password=[x](command:evil)');
  });
});
