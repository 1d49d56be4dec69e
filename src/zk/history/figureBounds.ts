// Whether each participant's figures (figures.ts ParticipantFigures) are exact or bounds, as LockFigures.bounds says
// for a whole lock: some time of theirs in the window was only bounded (found already running, seen gone after a
// gap), or the monitor had a gap on their lock in the window. Keyed by participantKey(lock, who).
import type { LockHistory } from './history';
import { isExact, type Window } from './figures';
import { participantKey } from '../../shared/lockHistory';

export { participantKey } from '../../shared/lockHistory';

export function participantBounds(history: LockHistory, window?: Window, now = Date.now()): Record<string, boolean> {
  const to = window?.to ?? now;
  const from = window?.from ?? -Infinity;
  const gapOn = (lock: string) => history.gaps.some((g) => (g.lock === undefined || g.lock === lock) && g.from <= to && (g.to ?? to) >= from);
  const bounds: Record<string, boolean> = {};
  for (const i of history.intervals()) {
    if ((i.end ?? to) < from || i.start > to) continue;
    const key = participantKey(i.lock, i.session ?? i.node);
    bounds[key] = bounds[key] === true || !isExact(i) || gapOn(i.lock);
  }
  return bounds;
}
