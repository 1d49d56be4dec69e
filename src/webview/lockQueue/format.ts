// Text helpers of the front-end (pure): templates with {0} placeholders and compact durations in the
// host-provided units.
import type { WebviewStrings } from '../../shared/lockQueueMessages';
import type { Participant } from '../../shared/lockAnalysis';

export function fmt(template: string, ...args: (string | number)[]): string {
  return template.replace(/\{(\d+)\}/g, (whole, i: string) => (Number(i) < args.length ? String(args[Number(i)]) : whole));
}

/** `2d 3h`, `3h 12m`, `12m 5s`, `42s`: the two largest units, never negative. */
export function formatDuration(ms: number, strings: Pick<WebviewStrings, 'unit.d' | 'unit.h' | 'unit.m' | 'unit.s'>): string {
  let s = Math.max(0, Math.floor(ms / 1000));
  const d = Math.floor(s / 86400);
  s -= d * 86400;
  const h = Math.floor(s / 3600);
  s -= h * 3600;
  const m = Math.floor(s / 60);
  s -= m * 60;
  const parts: string[] = [];
  if (d) parts.push(fmt(strings['unit.d'], d), fmt(strings['unit.h'], h));
  else if (h) parts.push(fmt(strings['unit.h'], h), fmt(strings['unit.m'], m));
  else if (m) parts.push(fmt(strings['unit.m'], m), fmt(strings['unit.s'], s));
  else parts.push(fmt(strings['unit.s'], s));
  return parts.join(' ');
}

/**
 * "held 3m 2s" / "held ≥ 5s" / "waiting 12s" / "leading 1h 2m". A holder's time counts from when it is known to
 * hold (`held`), never from its node's ctime (when it queued); `≥` when that is only a lower bound.
 */
export function participantTime(p: Participant, s: WebviewStrings, now: number): string {
  if (p.role === 'waiter') return fmt(s.waitingFor, formatDuration(now - p.since, s));
  const leader = p.role === 'leader';
  if (!p.held) return fmt(leader ? s.leadingAtLeast : s.heldAtLeast, formatDuration(0, s));
  const template = p.held.exact ? (leader ? s.leadingFor : s.heldFor) : (leader ? s.leadingAtLeast : s.heldAtLeast);
  return fmt(template, formatDuration(now - p.held.since, s));
}
