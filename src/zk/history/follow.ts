// Ties a recorder to a live monitor and its session: every analysis the monitor emits is observed, and while the
// session is not connected, or the monitor's reads fail, the recorder is told of a gap. The gap ends with the
// first analysis read after the monitor sees again (its reads happened before that analysis was taken).
import type { LockMonitor } from '../analysis';
import type { SessionState, ZkSession } from '../session/session';
import type { LockRecorder } from './recorder';

export function followMonitor(session: ZkSession, monitor: LockMonitor, recorder: LockRecorder, now: () => number = Date.now): () => void {
  let away = false;
  const onState = (state: SessionState) => {
    if (state === 'connected') return;
    away = true;
    recorder.gapStarted(now());
  };
  session.on('state', onState);
  const stopUpdates = monitor.onUpdate((analysis) => {
    if (away && session.state === 'connected') {
      away = false;
      recorder.gapEnded(analysis.takenAt);
    }
    if (!away) recorder.observe(analysis, analysis.takenAt, monitor.tablesAskedAt);
  });
  const stopCounters = monitor.onCounters((counters, takenAt) => {
    // A read after reconnecting that changed nothing shown (no update): the gap ends, and what is open is as it was.
    if (away && session.state === 'connected') {
      away = false;
      recorder.gapEnded(takenAt);
      recorder.sawUnchanged();
    }
    if (!away) recorder.noteCounters(counters, takenAt);
  });
  const stopErrors = monitor.onError(() => {
    away = true;
    recorder.gapStarted(now());
  });
  return () => {
    session.off('state', onState);
    stopUpdates();
    stopCounters();
    stopErrors();
  };
}
