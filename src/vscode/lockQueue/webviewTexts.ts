// The lock-queue webview's words, localized here (the webview has no l10n of its own) and sent in `init`;
// and the anomalies of an analysis explained in plain language from their facts.
import * as vscode from 'vscode';
import type { AnomalyText, WebviewStrings } from '../../shared/lockQueueMessages';
import { anomalyKey, type Anomaly, type LockAnalysis } from '../../shared/lockAnalysis';

const t = vscode.l10n.t;

export function webviewStrings(): WebviewStrings {
  return {
    title: t('Lock queue {0} — {1}'),
    subtreeTitle: t('Locks under {0} — {1}'),
    loading: t('Loading…'),
    live: t('Live'),
    disconnected: t('Not connected'),
    noQueues: t('No lock queues found here.'),
    emptyQueue: t('Nobody holds or waits for this lock.'),
    holder: t('holder'),
    waiter: t('waiting'),
    leader: t('leader'),
    heldFor: t('held {0}'),
    waitingFor: t('waiting {0}'),
    leadingFor: t('leading {0}'),
    heldAtLeast: t('held ≥ {0}'),
    leadingAtLeast: t('leading ≥ {0}'),
    session: t('session {0}'),
    client: t('client {0}'),
    persistentNode: t('persistent node (no owner session)'),
    watches: t('watches'),
    waitsFor: t('waits for'),
    ownNode: t('own node'),
    ownNodeWatch: t('watches its own node, to learn at once if it is deleted; it waits on nothing for it'),
    seenOnServer: t('seen on server'),
    inferred: t('inferred from the recipe'),
    ours: t('ours'),
    position: t('position {0}'),
    holders: t('{0} holding'),
    waiters: t('{0} waiting'),
    leases: t('{0} leases'),
    reveal: t('Reveal in ZooKeeper Tree'),
    acquire: t('Acquire Here…'),
    release: t('Release'),
    forceRelease: t('Force Release (Delete Node)…'),
    refresh: t('Refresh'),
    deadlock: t('Deadlock'),
    deadlockStep: t('{0} waits for {1} on {2}'),
    queueList: t('Lock queues under {0}'),
    'kind.exclusive': t('exclusive'),
    'kind.read': t('read'),
    'kind.write': t('write'),
    'kind.lease': t('lease'),
    'kind.candidate': t('candidate'),
    'unit.d': t('{0}d'),
    'unit.h': t('{0}h'),
    'unit.m': t('{0}m'),
    'unit.s': t('{0}s'),
    serverWatches: t('{0}: data watches {1}, child watches {2} (via {3})'),
    serverWatchesNone: t('{0}: watch tables not readable ({1})'),
    updated: t('updated {0}'),
    anomalies: t('Anomalies'),
    'via.admin': t('AdminServer over HTTP'),
    'via.admin.secure': t('AdminServer over HTTPS'),
    'via.fourLetterWords': t('four-letter words, unencrypted'),
    'via.fourLetterWords.secure': t('four-letter words over TLS'),
    truncated: t('More lock queues may exist below: only the first ones found are shown.'),
    timeline: t('Timeline'),
    timelineHelp: t('Lock history timeline. Up and Down choose a lane, Left and Right an interval on it, Shift+Left and Shift+Right scroll, + and − zoom, Home follows now, Enter reveals the node.'),
    zoomIn: t('Zoom In'),
    zoomOut: t('Zoom Out'),
    followNow: t('Follow Now'),
    perSession: t('One Lane per Session'),
    noHistory: t('Nothing recorded yet.'),
    replayTitle: t('Lock history {0}'),
    'unit.ms': t('{0} ms'),
    'tl.hold': t('hold'),
    'tl.wait': t('wait'),
    'tl.span': t('{0} → {1} ({2})'),
    'tl.open': t('still open'),
    'tl.exact': t('exact times'),
    'tl.startBound': t('start is a bound (found already there, or after a gap)'),
    'tl.endBound': t('end is a bound (seen gone after a gap)'),
    'tl.ended': t('ended: {0}'),
    'tl.gap': t('Not seen (the monitor was away or the panel hidden):'),
    'tl.unseen': t('{0} changes on {1} came and went unseen:'),
    'end.acquired': t('acquired the lock'),
    'end.released': t('released'),
    'end.sessionEnded': t('session lost'),
    'end.gaveUp': t('gave up waiting'),
    'end.unknown': t('node gone (how cannot be told)'),
    'fig.title': t('Contention'),
    'fig.whole': t('Whole history'),
    'fig.window': t('Visible window'),
    'fig.who': t('Lock / participant'),
    'fig.acquisitions': t('Acquisitions'),
    'fig.hold': t('Hold time'),
    'fig.wait': t('Wait time'),
    'fig.spread': t('median {0} · p95 {1} · max {2}'),
    'fig.longestQueue': t('Longest queue'),
    'fig.perSecond': t('Acquisitions/s'),
    'fig.heldLongest': t('Held longest'),
    'fig.exact': t('exact'),
    'fig.bound': t('bound (some times only bounded)'),
    'fig.approximate': t('approximate (older intervals summarised)'),
    'fig.gaveUp': t('{0} gave up'),
    'fig.none': t('No figures yet.'),
  };
}

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 120) return t('{0} s', s);
  const m = Math.round(s / 60);
  return m < 120 ? t('{0} min', m) : t('{0} h', Math.round(m / 60));
}

function first<T>(list: readonly T[], fallback: T): T {
  return list.length ? list[0] : fallback;
}

const str = (v: string | number | undefined, fallback = '?') => (v === undefined ? fallback : String(v));
const num = (v: string | number | undefined) => (typeof v === 'number' ? v : undefined);

export function describeAnomaly(a: Anomaly): AnomalyText {
  const path = first(a.paths, '');
  const session = first(a.sessions, '?');
  const f = a.facts;
  switch (a.kind) {
    case 'herd': return {
      title: t('Herd effect'),
      explanation: f.watchKind === 'children'
        ? t('{0} waiters watch the children of {1}: every release wakes all of them and all re-read the queue. A waiter should watch only its predecessor.', str(f.watchers, String(a.sessions.length)), str(f.target, path))
        : t('{0} sessions watch {1}: one change wakes all of them. A waiter should watch only its predecessor.', str(f.watchers, String(a.sessions.length)), str(f.target, path)),
    };
    case 'stuck-waiter': return {
      title: t('Stuck waiter'),
      explanation: f.reason === 'watchesMissingNode'
        ? t('{0} watches {1}, which no longer exists: it will not be woken.', path, str(f.watched))
        : t('{0} should watch {1}, but no server lists such a watch of its session: it may never be woken.', path, str(f.expected)),
    };
    case 'persistent-lock-node': return {
      title: t('Persistent lock node'),
      explanation: t('{0} is not ephemeral: it stays when its owner dies, and blocks everyone behind it until someone deletes it.', path),
    };
    case 'dead-owner': return {
      title: t('Owner session gone'),
      explanation: t('No server has a connection from session {0}, the owner of {1}: if the session has expired, the node vanishes shortly; if it stays, the lock is stuck.', session, path),
    };
    case 'held-too-long': {
      const held = num(f.heldMs) !== undefined ? duration(num(f.heldMs)!) : '?';
      const threshold = num(f.thresholdMs) !== undefined ? duration(num(f.thresholdMs)!) : '?';
      return {
        title: t('Held too long'),
        explanation: f.atLeast
          ? t('{0} has been held for at least {1}, longer than {2} (zooscope.locks.heldTooLongMinutes).', path, held, threshold)
          : t('{0} has been held for {1}, longer than {2} (zooscope.locks.heldTooLongMinutes).', path, held, threshold),
      };
    }
    case 'duplicate-guid': return {
      title: t('Duplicate client id'),
      explanation: t('{0} nodes carry the client id {1}: a create lost to a connection loss was probably retried, so one client is queued more than once.', str(f.count, String(a.paths.length)), str(f.guid)),
    };
    case 'deadlock': return {
      title: t('Deadlock'),
      explanation: t('Sessions {0} each hold a lock the next one waits for: none can go on until one of them gives up.', a.sessions.join(', ')),
    };
    case 'unknown-recipe': return {
      title: t('Unknown recipe'),
      explanation: t('The names under {0} follow no known lock recipe: the order shown is by sequence number and who waits for whom is a guess.', path),
    };
    case 'mixed-recipes': return {
      title: t('Mixed lock libraries'),
      explanation: t('{0} holds nodes of {1}: these libraries do not see each other\'s nodes (or order them differently), so two clients can hold the lock at once. Mutual exclusion is not guaranteed.', path, str(f.libraries)),
    };
    case 'self-wait': return {
      title: t('Waits behind itself'),
      explanation: t('Session {0} has {1} nodes in this queue and waits behind its own node {2}: several threads of one client do this in normal use. It is not a deadlock.', session, str(f.nodes, String(a.paths.length)), str(f.first, path)),
    };
    case 'unreadable': {
      const count = num(f.count) ?? a.paths.length;
      const listed = a.paths.join(', ') + (count > a.paths.length ? ', …' : '');
      return {
        title: t('Not readable'),
        explanation: count === 1
          ? t('1 path could not be read ({0}) and is left out: {1}. Credentials that may read it would show its queues.', str(f.reason), listed)
          : t('{0} paths could not be read ({1}) and are left out: {2}. Credentials that may read them would show their queues.', count, str(f.reason), listed),
      };
    }
    case 'child-watches-invisible': return {
      title: t('Child watches not listed'),
      explanation: f.childWatches === 1
        ? t('The servers hold 1 child watch but cannot say which session set it: waiters that watch the whole queue are drawn as inferred.')
        : typeof f.childWatches === 'number' && f.childWatches >= 0
        ? t('The servers hold {0} child watches but cannot say which sessions set them: waiters that watch the whole queue are drawn as inferred.', f.childWatches)
        : t('The servers count child watches but cannot say who set them: waiters that watch the whole queue are drawn as inferred.'),
    };
  }
}

/** Explanations for every anomaly of an analysis, by anomalyKey. */
export function anomalyTexts(analysis: LockAnalysis): Record<string, AnomalyText> {
  const texts: Record<string, AnomalyText> = {};
  for (const a of [...analysis.anomalies, ...analysis.queues.flatMap((q) => q.anomalies)]) texts[anomalyKey(a)] = describeAnomaly(a);
  return texts;
}
