// The watch census as Prometheus metrics (`zooscope watches --watch --metrics`): each census replaces the gauges
// (watches per member, the top sessions and paths, herd risk per lock queue); counters say how many censuses ran
// and failed. The sets are bounded: at most `top` sessions and paths and `top` lock queues get a series, so a leak
// shows as one series growing, not as thousands of new ones.
import type { WatchCensus } from '../census';
import { render, type ExpositionFormat, type Family } from './exposition';

export const DEFAULT_METRICS_TOP = 10;

const RISK_LEVEL = { none: 0, possible: 1, herd: 2, unknown: -1 } as const;

export class CensusMetrics {
  private last?: WatchCensus;
  private lastDurationSeconds = 0;
  private lastSuccess = 0;
  private runs = 0;
  private failures = 0;

  constructor(private readonly top = DEFAULT_METRICS_TOP) {}

  /** A census taken (complete or not) and how long it took. */
  taken(census: WatchCensus, durationMs: number): void {
    this.runs++;
    this.last = census;
    this.lastDurationSeconds = durationMs / 1000;
    if (census.complete) this.lastSuccess = census.takenAt / 1000;
    else this.failures++;
  }

  /** A census that gave nothing (the session could not be used): the gauges keep the last one's values. */
  failed(): void {
    this.runs++;
    this.failures++;
  }

  render(format: ExpositionFormat): string {
    const census = this.last;
    const servers = census?.servers ?? [];
    const perServer = (name: string, help: string, value: (s: WatchCensus['servers'][number]) => number | undefined): Family => ({
      type: 'gauge', name, help,
      samples: servers.flatMap((s) => { const v = value(s); return v === undefined ? [] : [{ labels: [['server', s.server]] as const, value: v }]; }),
    });
    const families: Family[] = [
      perServer('zookeeper_watch_census_data_watches', 'Data watches (exists, getData, addWatch) a member listed in the last census.', (s) => s.dataWatches),
      perServer('zookeeper_watch_census_child_watches', 'Child watches (getChildren) on a member: its watch_count less the listed data watches (no server lists them).', (s) => s.childWatches),
      perServer('zookeeper_watch_census_sessions', 'Sessions connected to a member (cons) in the last census.', (s) => s.sessions),
      perServer('zookeeper_watch_census_member_listed', 'Whether a member listed its watches in the last census (0: refused or failed; see zooscope watches).', (s) => (s.dataWatches === undefined ? 0 : 1)),
      {
        type: 'gauge', name: 'zookeeper_watch_census_session_watches', help: `Data watches of the ${this.top} sessions with the most, on their member.`,
        samples: (census?.sessions ?? []).slice(0, this.top).map((s) => ({ labels: [['session', s.id], ['client_address', s.clientAddress ?? ''], ['server', s.server]], value: s.watches })),
      },
      {
        type: 'gauge', name: 'zookeeper_watch_census_path_watchers', help: `Sessions data-watching each of the ${this.top} most watched paths, all members together.`,
        samples: (census?.paths ?? []).slice(0, this.top).map((p) => ({ labels: [['path', p.path]], value: p.watchers })),
      },
      {
        type: 'gauge', name: 'zookeeper_watch_census_herd_unseen_waiters', help: 'Waiters of a lock queue seen watching nothing while their member holds unlisted child watches: each release wakes them all.',
        samples: (census?.herd ?? []).filter((h) => h.risk !== 'none').slice(0, this.top).map((h) => ({ labels: [['lock', h.lock], ['recipe', h.recipe]], value: h.unseen })),
      },
      {
        type: 'gauge', name: 'zookeeper_watch_census_herd_risk', help: 'Herd risk of a lock queue: 2 herd, 1 possible, 0 none, -1 unknown.',
        samples: (census?.herd ?? []).filter((h) => h.risk !== 'none').slice(0, this.top).map((h) => ({ labels: [['lock', h.lock], ['recipe', h.recipe]], value: RISK_LEVEL[h.risk] })),
      },
      { type: 'gauge', name: 'zookeeper_watch_census_data_watches_all', help: 'Data watches listed by all members in the last census.', samples: census ? [{ labels: [], value: census.totals.dataWatches }] : [] },
      { type: 'counter', name: 'zookeeper_watch_census_runs', help: 'Censuses taken.', samples: [{ labels: [], value: this.runs }] },
      { type: 'counter', name: 'zookeeper_watch_census_failures', help: 'Censuses in which a member did not list its watches, or that could not be taken.', samples: [{ labels: [], value: this.failures }] },
      { type: 'gauge', name: 'zookeeper_watch_census_duration_seconds', unit: 'seconds', help: 'How long the last census took.', samples: [{ labels: [], value: this.lastDurationSeconds }] },
      { type: 'gauge', name: 'zookeeper_watch_census_last_complete_timestamp_seconds', unit: 'seconds', help: 'When the last census in which every member listed its watches was taken (Unix time).', samples: [{ labels: [], value: this.lastSuccess }] },
    ];
    return render(families, format);
  }
}
