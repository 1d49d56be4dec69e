// Ties a recorder to a live monitor and its session. Once the monitor has shown the queues and the server is known
// to have persistent watches, one persistent recursive watch on the monitored path tells the recorder every create
// and delete under it, in the server's order (a read only of a node whose owner the rules need); a full read right after the watch is set, and
// after every gap, tells what the events cannot (what was there before, what changed while away). Every analysis
// the monitor emits is observed (sessions, clients and labels; and the queues only reads can follow). While the
// session is not connected, or the monitor's reads fail, the recorder is told of a gap, which ends with the first
// analysis read after the monitor sees again (its reads happened before that analysis was taken).
import type { LockAnalysis } from '../../shared/lockAnalysis';
import type { LockMonitor } from '../analysis';
import { readQueueNode } from '../analysis/readQueue';
import type { SessionState, ZkSession } from '../session/session';
import type { WatchEvent } from '../session/watchRegistry';
import type { LockRecorder } from './recorder';
import { trackerReadingOf } from './trackerReading';

/**
 * `onSynced` is called after each full read that synced the recorder with the events: from then on what the server
 * tells is recorded exactly (before it, a change may have come before the watch and can only be bounded).
 */
export function followMonitor(
  session: ZkSession, monitor: LockMonitor, recorder: LockRecorder, now: () => number = Date.now, onSynced: () => void = () => undefined,
): () => void {
  let away = false;
  let stopped = false;
  let stopWatch: (() => void) | undefined;
  let arming = false;
  let resyncing = false;
  let last: LockAnalysis | undefined;

  const onTreeEvent = (event: WatchEvent) => {
    if (stopped) return;
    if (event.kind === 'created') recorder.nodeCreated(event.path, now());
    else if (event.kind === 'deleted') recorder.nodeDeleted(event.path, now());
  };
  /**
   * One full read (refresh) whose reads all begin after this moment, on the session the events come on: with the
   * changes told since, it gives the members when the watch was set. Again until one syncs (a read begun before
   * the last gap ended cannot).
   */
  const resync = () => {
    if (resyncing || stopped) return;
    resyncing = true;
    const readsFrom = now();
    monitor.refresh().then(() => {
      resyncing = false;
      // refresh() always emits, and settles right after: `last` is its analysis.
      if (stopped || away || !last) return;
      recorder.resync(last, readsFrom);
      if (recorder.followingEvents.synced) onSynced();
      else resync();
    }, () => { resyncing = false; });
  };
  const arm = () => {
    // An older server closes the connection on addWatch: only once the monitor's own watches showed it has them.
    if (arming || stopWatch || stopped || session.watches.persistent !== true) return;
    arming = true;
    session.watches.watchTree(monitor.path, onTreeEvent).then((stop) => {
      arming = false;
      if (stopped) {
        stop();
        return;
      }
      stopWatch = stop;
      // A semaphore's or fixed leader's node is read once when its create is told (its owner and data).
      recorder.followEvents(now(), (path) => readQueueNode(session, path).then((node) => node && { owner: node.owner, data: node.data }));
      resync();
    }, () => { arming = false; }); // the analyses go on alone; the next one tries again
  };
  const seeAgain = (at: number) => {
    away = false;
    recorder.gapEnded(at);
    if (stopWatch) resync();
  };

  const onState = (state: SessionState) => {
    if (state === 'connected') return;
    away = true;
    recorder.gapStarted(now());
  };
  session.on('state', onState);
  const stopUpdates = monitor.onUpdate((analysis) => {
    last = analysis;
    if (away && session.state === 'connected') seeAgain(analysis.takenAt);
    if (!away) recorder.observe(analysis, analysis.takenAt, monitor.tablesAskedAt);
    arm();
  });
  const stopCounters = monitor.onCounters((counters, takenAt) => {
    // A read after reconnecting that changed nothing shown (no update): the gap ends, and what is open is as it was.
    if (away && session.state === 'connected') {
      seeAgain(takenAt);
      recorder.sawUnchanged();
    }
    if (!away) recorder.noteCounters(counters, takenAt);
  });
  // Every reading of the tables, also one that changes no analysis: the leader's tracker tells how nodes went.
  const stopTables = monitor.onTables((reading) => {
    if (stopped) return;
    const own = { sessionId: session.sessionId, timeoutMs: session.negotiatedTimeoutMs, chroot: session.parsed.chroot };
    const tracker = trackerReadingOf(reading, own);
    if (!tracker) return;
    recorder.noteTracker(tracker);
    const wantedAt = recorder.trackerReadingWantedAt();
    if (wantedAt !== undefined) monitor.readTablesBy(wantedAt);
  });
  const stopErrors = monitor.onError(() => {
    away = true;
    recorder.gapStarted(now());
  });
  return () => {
    stopped = true;
    stopWatch?.();
    session.off('state', onState);
    stopUpdates();
    stopCounters();
    stopTables();
    stopErrors();
  };
}
