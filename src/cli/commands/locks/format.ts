// The human form of a LockAnalysis for terminals and CI logs: one table per queue, then anomalies, deadlocks and
// how each server's tables were read. Everything from ZooKeeper is untrusted text: control characters are removed.
import type { Anomaly, LockAnalysis, LockQueue, Participant } from '../../../zk/analysis';
import { visibleText } from '../../../shared/visibleText';

// Written out here as well as by the output writer, so columns are measured on the text as it is shown.
const clean = visibleText;
const base = (path: string) => path.slice(path.lastIndexOf('/') + 1);
/** `1 data watch`, `2 data watches`. */
const counted = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const short = (text: string, max: number) => (text.length > max ? text.slice(0, max - 1) + '…' : text);

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 120) return `${s}s`;
  if (s < 7200) return `${Math.round(s / 60)}min`;
  return `${(s / 3600).toFixed(1)}h`;
}

function table(rows: string[][]): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows.map((r) => r.map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(widths[c]))).join('  ').trimEnd()).join('\n');
}

function seen(p: Participant): string {
  if (p.role !== 'waiter') return '';
  const sources = new Set(p.watches.filter((w) => p.waitsFor.includes(w.path) || w.source === 'inferred').map((w) => w.source));
  if (sources.has('server')) return 'seen';
  if (sources.has('inferred')) return 'inferred';
  return p.watches.length ? 'seen' : '-';
}

/** How long a holder has held: exact, `≥` a lower bound, or `?` (held since before this read, start unknown). */
function heldText(p: Participant, now: number): string {
  if (!p.held) return '';
  const ms = now - p.held.since;
  if (p.held.exact) return duration(ms);
  return ms >= 1000 ? `≥${duration(ms)}` : '?';
}

function queueTable(q: LockQueue, now: number): string {
  // QUEUED is the node's age (ctime): when it queued, not when it began to hold.
  const header = ['#', 'ROLE', 'KIND', 'NODE', 'SESSION', 'CLIENT', 'LABEL', 'QUEUED', 'HELD', 'WAITS FOR', 'WATCH'];
  const rows = q.participants.map((p) => [
    String(p.position), p.role + (p.ours ? '*' : ''), p.kind, p.nodeless ? '(watch only)' : short(clean(p.name), 60),
    p.session ?? '(persistent)', p.clientAddress ?? '?', short(clean(p.label ?? ''), 32), p.since > 0 ? duration(now - p.since) : '',
    heldText(p, now), p.waitsFor.map((w) => short(clean(base(w)), 60)).join(', ') || '-', seen(p),
  ]);
  return table([header, ...rows]);
}

export function describeAnomaly(a: Anomaly): string {
  const f = a.facts;
  const sessions = a.sessions.length ? ` [${a.sessions.join(', ')}]` : '';
  const where = a.paths.length ? ` ${a.paths.map(clean).join(', ')}` : '';
  switch (a.kind) {
    case 'herd': return `herd effect: ${f.watchers} sessions watch ${f.watchKind === 'children' ? 'the children of' : ''} ${clean(String(f.target))}${sessions}`;
    case 'stuck-waiter': return f.reason === 'watchesMissingNode'
      ? `stuck waiter: watches ${clean(String(f.watched))}, which no longer exists${sessions}`
      : `stuck waiter: watches nothing in the queue (should watch ${clean(base(String(f.expected)))})${where}${sessions}`;
    case 'persistent-lock-node': return `persistent lock node (never released when its client dies):${where}`;
    case 'dead-owner': return `owner session not connected to any server${f.inSessionTracker === 0 ? ' and unknown to the leader' : ''} (${f.role}):${where}${sessions}`;
    case 'held-too-long': return `held for ${f.atLeast ? 'at least ' : ''}${duration(Number(f.heldMs))} (threshold ${duration(Number(f.thresholdMs))}):${where}${sessions}`;
    case 'duplicate-guid': return `${f.count} nodes share GUID ${clean(String(f.guid))} (a retried create?):${where}`;
    case 'deadlock': return `deadlock between ${a.sessions.join(' → ')} on${where}`;
    case 'unknown-recipe': return `unknown recipe: order by sequence number, roles guessed (lowest holds):${where}`;
    case 'mixed-recipes': return `nodes of several libraries (${clean(String(f.libraries))}) in one queue: they do not see each other's nodes, mutual exclusion is not guaranteed:${where}${sessions}`;
    case 'self-wait': return `session waits behind its own node (${f.nodes} nodes: several threads of one client; not a deadlock):${where}${sessions}`;
    case 'unreadable': return `${counted(Number(f.count), 'path', 'paths')} not readable (${clean(String(f.reason))}), left out of the analysis:${where}${Number(f.count) > a.paths.length ? ', …' : ''}`;
    case 'child-watches-invisible': return `child watches are invisible to the servers' tables${Number(f.childWatches) >= 0 ? ` (${f.childWatches} held now)` : ''}: edges marked inferred follow the recipe`;
  }
}

export function formatAnalysis(analysis: LockAnalysis): string {
  const out: string[] = [];
  if (analysis.queues.length === 0) out.push(`no lock queues at or under ${clean(analysis.root)}`);
  for (const q of analysis.queues) {
    out.push(`QUEUE ${clean(q.path)}  (${q.recipe}${q.leases !== undefined && q.leases !== 1 ? `, ${q.leases} leases` : ''}, ${counted(q.participants.length, 'participant', 'participants')})`);
    if (q.participants.length) out.push(queueTable(q, analysis.takenAt));
    for (const a of q.anomalies) out.push(`  ! ${a.severity}: ${describeAnomaly(a)}`);
    out.push('');
  }
  for (const d of analysis.deadlocks) {
    const steps = d.sessions.map((s, i) => `${s}${d.clients?.[i] ? ` (${d.clients[i]})` : ''} waits in ${clean(d.locks[i])}`);
    out.push(`DEADLOCK: ${steps.join(' → ')} → back to ${d.sessions[0]}`);
  }
  for (const a of analysis.anomalies) if (a.kind !== 'deadlock') out.push(`${a.severity}: ${describeAnomaly(a)}`);
  const servers = analysis.servers.map((s) => `${s.server} via ${s.via}${s.reason ? ` (${clean(s.reason)})` : ''}` +
    `${s.dataWatches !== undefined ? `, ${counted(s.dataWatches, 'data watch', 'data watches')}` : ''}${s.childWatches !== undefined ? `, ${counted(s.childWatches, 'child watch', 'child watches')}` : ''}`);
  if (servers.length) out.push(`servers: ${servers.join('; ')}`);
  for (const u of analysis.unreadable ?? []) out.push(`unreadable: ${clean(u.path)} (${clean(u.reason)}: ${u.what === 'children' ? 'children not listed, not crawled' : 'data not read'})`);
  if (analysis.truncated) out.push('note: the crawl stopped at its bound; more queues may exist below');
  out.push('* = ZooScope\'s own session; WATCH: seen = the servers list the watch, inferred = from the recipe');
  out.push('QUEUED = since the node was created; HELD: ≥ = at least (it already held when first seen), ? = held since before this read');
  return out.join('\n') + '\n';
}
