// The terminal form of a lock history: one line per change as `--watch` sees it, and the contention figures at
// the end (or of a recording). Everything from ZooKeeper goes through visibleText here, so columns are measured on
// the text as shown, and again through the output writer.
import type { HistoryEvent, HistoryInterval, LockFigures, Spread } from '../../../zk/history';
import { visibleText } from '../../../shared/visibleText';

const clean = visibleText;

function clock(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').replace('Z', '');
}

/** `850ms`, `12.3s`, `4.5min`, `2.1h`. */
export function durationText(ms: number | undefined): string {
  if (ms === undefined) return '-';
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 120_000) return `${(ms / 1000).toFixed(1)}s`;
  if (ms < 7_200_000) return `${(ms / 60_000).toFixed(1)}min`;
  return `${(ms / 3_600_000).toFixed(1)}h`;
}

function who(i: HistoryInterval): string {
  return [i.session ?? 'no-session', i.clientAddress, i.label !== undefined ? JSON.stringify(clean(i.label)) : undefined].filter((v) => v).join(' ');
}

/** One line per change, or undefined for what is not worth a line (queue samples). */
export function eventLine(event: HistoryEvent): string | undefined {
  switch (event.type) {
    case 'open': {
      const i = event.interval;
      const verb = i.kind === 'hold' ? 'holds ' : 'waits ';
      return `${clock(i.start)}${i.startExact ? ' ' : '~'} ${verb} ${clean(i.lock)}/${clean(i.node)}  ${who(i)}`;
    }
    case 'close': {
      const i = event.interval;
      if (i.ended === 'acquired') return undefined; // the hold that follows says it
      const verb = i.kind === 'hold' ? 'left  ' : 'gone  ';
      return `${clock(i.end ?? i.start)}${i.endExact ? ' ' : '~'} ${verb} ${clean(i.lock)}/${clean(i.node)}  after ${durationText((i.end ?? i.start) - i.start)} ${i.kind === 'hold' ? 'held' : 'waiting'}`;
    }
    case 'ended': {
      const i = event.interval;
      return i.ended === 'sessionEnded' ? `${clock(i.end ?? i.start)}  session ${i.session ?? '?'} ended (${clean(i.lock)}/${clean(i.node)} was ${i.kind === 'hold' ? 'holding' : 'waiting'})` : undefined;
    }
    case 'gap':
      if (event.gap.lock !== undefined) return `${clock(event.gap.to ?? event.gap.from)}  UNSEEN: ${event.gap.unseen ?? 0} create(s)/delete(s) on ${clean(event.gap.lock)} came and went between two reads`;
      return event.gap.to === undefined ? `${clock(event.gap.from)}  GAP: not connected; nothing is recorded until it is` : `${clock(event.gap.to)}  seeing again (gap of ${durationText(event.gap.to - event.gap.from)}); the next times are bounds`;
    case 'queue':
      return undefined;
  }
}

const spreadText = (s: Spread) => (s.count === 0 ? '-' : `median ${durationText(s.median)}  p95 ${durationText(s.p95)}  max ${durationText(s.max)}`);

export function figuresText(figures: LockFigures[], window: { from: number; to: number }): string {
  const lines = [`contention from ${clock(window.from)} to ${clock(window.to)} (UTC)`];
  if (figures.length === 0) lines.push('no lock activity recorded');
  for (const f of figures) {
    lines.push('', `${clean(f.lock)}${f.bounds ? '  (some times are bounds: found already held, or the monitor was away)' : ''}${f.approximate ? '  (older intervals summarised: percentiles within 2%)' : ''}`);
    lines.push(`  acquisitions  ${f.acquisitions}  (${f.acquisitionsPerSecond.toFixed(2)}/s)`);
    lines.push(`  hold          ${spreadText(f.holdMs)}`);
    lines.push(`  wait          ${spreadText(f.waitMs)}`);
    lines.push(`  queue         longest ${f.maxQueueLength}`);
    if (f.sessionLosses > 0) lines.push(`  sessions lost ${f.sessionLosses}`);
    if (f.unseenChanges > 0) lines.push(`  unseen        ${f.unseenChanges} create(s)/delete(s) came and went between reads (not in these figures)`);
    if (f.longestHold) {
      const l = f.longestHold;
      lines.push(`  longest hold  ${durationText(l.ms)}${l.exact ? '' : ' (bound)'} by ${clean(l.node)} ${l.session ?? ''} ${l.clientAddress ?? ''}`.trimEnd());
    }
    for (const p of f.participants.slice(0, 10)) {
      const label = p.label !== undefined ? ` ${JSON.stringify(clean(p.label))}` : '';
      lines.push(`    ${clean(p.who)}${p.clientAddress ? ` ${p.clientAddress}` : ''}${label}: ${p.acquisitions} held (${spreadText(p.holdMs)}), waited ${spreadText(p.waitMs)}${p.gaveUp ? `, gave up ${p.gaveUp}` : ''}`);
    }
    if (f.participants.length > 10) lines.push(`    … ${f.participants.length - 10} more`);
  }
  return lines.join('\n');
}
