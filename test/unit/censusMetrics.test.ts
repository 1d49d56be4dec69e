// The census as metrics: bounded top sets, one series a member, herd risk only for queues at risk, counters of
// censuses taken and failed, label values escaped.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { CensusMetrics } from '../../src/zk/metrics';
import type { WatchCensus } from '../../src/zk/census';

const census = (complete: boolean): WatchCensus => ({
  takenAt: 1_700_000_000_000, complete,
  servers: [{ server: 'a:2181', dataWatches: 10, childWatches: 2, childWatchesDerived: true, sessions: 5, via: 'fourLetterWords', silences: [] },
    { server: 'b:2181', via: 'none', silences: [{ what: 'watches', reason: 'refused', detail: 'wchp' }] }],
  sessions: [1, 2, 3, 4, 5].map((n) => ({ id: `0x${n}`, clientAddress: `10.0.0.${n}:1`, server: 'a:2181', watches: 10 - n, prefixes: [] })),
  paths: [{ path: '/a"b\\c', watchers: 3 }],
  herd: [
    { lock: '/locks/x', recipe: 'zookeeper-recipes', waiters: 4, watchingPredecessor: 0, unseen: 4, watchingNothing: 0, watchingOther: 0, unknown: 0, risk: 'herd', named: [] },
    { lock: '/locks/fine', recipe: 'curator', waiters: 2, watchingPredecessor: 2, unseen: 0, watchingNothing: 0, watchingOther: 0, unknown: 0, risk: 'none', named: [] },
  ],
  totals: { dataWatches: 10, childWatches: 2, watchingSessions: 5, watchedPaths: 9 },
});

test('census metrics: top sets bounded, members one series each, herd only where at risk, escaped labels, counters', () => {
  const metrics = new CensusMetrics(3);
  assert.match(metrics.render('text'), /^zookeeper_watch_census_runs_total 0$/m);
  metrics.taken(census(false), 2500);
  metrics.failed();
  const text = metrics.render('text');
  assert.equal(text.match(/^zookeeper_watch_census_session_watches\{/gm)?.length, 3);
  assert.match(text, /^zookeeper_watch_census_session_watches\{session="0x1",client_address="10\.0\.0\.1:1",server="a:2181"\} 9$/m);
  assert.match(text, /^zookeeper_watch_census_data_watches\{server="a:2181"\} 10$/m);
  assert.doesNotMatch(text, /^zookeeper_watch_census_data_watches\{server="b:2181"\}/m, 'a member that did not list has no count');
  assert.match(text, /^zookeeper_watch_census_member_listed\{server="b:2181"\} 0$/m);
  assert.match(text, /^zookeeper_watch_census_path_watchers\{path="\/a\\"b\\\\c"\} 3$/m);
  assert.match(text, /^zookeeper_watch_census_herd_unseen_waiters\{lock="\/locks\/x",recipe="zookeeper-recipes"\} 4$/m);
  assert.doesNotMatch(text, /locks\/fine/);
  assert.match(text, /^zookeeper_watch_census_runs_total 2$/m);
  assert.match(text, /^zookeeper_watch_census_failures_total 2$/m);
  assert.match(text, /^zookeeper_watch_census_duration_seconds 2\.5$/m);
  assert.match(metrics.render('openmetrics'), /# EOF\n$/);
});
