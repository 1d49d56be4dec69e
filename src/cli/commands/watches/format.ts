// The human form of a watch census: the members (data watches listed, child watches derived), what a member would
// not say, the sessions with the most watches, the paths with the most watchers, herd risk per lock queue, fan-out,
// and what grew since a saved census. Everything from ZooKeeper is untrusted: every cell goes through visibleText.
import type { CensusComparison, FanOut, HerdRisk, MemberCost, Silence, WatchCensus } from '../../../zk/census';
import { OTHER_PREFIX } from '../../../zk/census/tally';
import { shortened, visibleText } from '../../../shared/visibleText';
import { columns } from '../../columns';

const cell = (text: string) => visibleText(shortened(text, 200));
const count = (n: number | undefined) => (n === undefined ? '?' : n.toLocaleString('en-US'));
const counted = (n: number, one: string, many: string) => `${count(n)} ${n === 1 ? one : many}`;

const WHAT: Record<Silence['what'], string> = { figures: 'watch totals (mntr)', connections: 'connections', watches: 'watches not listed' };

/** What a member would not say, in words. */
export function silenceText(server: string, s: Silence): string {
  const why = s.reason === 'refused' ? `'${s.detail}' is not in its 4lw.commands.whitelist` : s.detail;
  const admin = s.adminServer === undefined ? '' : `; its AdminServer could not say either (${s.adminServer})`;
  return `${server}: ${WHAT[s.what]}: ${why}${admin}`;
}

const VIA: Record<WatchCensus['servers'][number]['via'], string> = { admin: 'AdminServer', fourLetterWords: 'four-letter words', none: '-' };

function serversPart(census: WatchCensus): string[] {
  const header = ['member', 'data watches', 'child watches*', 'sessions', 'asked by'];
  const rows = census.servers.map((s) => [s.server, count(s.dataWatches), count(s.childWatches), count(s.sessions), VIA[s.via]].map(cell));
  const lines = [columns([header, ...rows])];
  for (const s of census.servers) for (const silence of s.silences) lines.push(cell(silenceText(s.server, silence)));
  lines.push('* child watches (getChildren) are listed by no server: derived as mntr\'s watch_count less the listed data watches');
  return lines;
}

const prefixText = (p: { prefix: string; watches: number }) =>
  `${p.prefix === OTHER_PREFIX ? p.prefix : p.prefix === '/' ? '/…' : `${p.prefix}/…`} (${count(p.watches)})`;

function sessionsPart(census: WatchCensus): string[] {
  if (census.sessions.length === 0) return ['no session holds a listed data watch'];
  const header = ['session', 'client', 'member', 'watches', 'paths by parent'];
  const rows = census.sessions.map((s) => [s.id, s.clientAddress ?? '?', s.server, count(s.watches), s.prefixes.map(prefixText).join(', ')].map(cell));
  return [`sessions with the most watches (${count(census.sessions.length)} of ${count(census.totals.watchingSessions)} watching)`, columns([header, ...rows])];
}

function pathsPart(census: WatchCensus): string[] {
  if (census.paths.length === 0) return [];
  const rows = census.paths.map((p) => [count(p.watchers), p.path].map(cell));
  return [`paths with the most watchers (${count(census.paths.length)} of ${count(census.totals.watchedPaths)} watched)`, columns([['watchers', 'path'], ...rows])];
}

const RISK: Record<HerdRisk['risk'], string> = { herd: 'HERD', possible: 'POSSIBLE HERD', unknown: 'unknown', none: 'no herd' };

/** One queue's risk in words: the counts, a plain explanation, and the waiters behind it. */
export function herdText(h: HerdRisk): string[] {
  const parts = [`${counted(h.waiters, 'waiter', 'waiters')}`, `${count(h.watchingPredecessor)} watch their predecessor`];
  if (h.unseen) parts.push(`${count(h.unseen)} seen watching nothing while their member holds unlisted child watches`);
  if (h.watchingOther) parts.push(`${count(h.watchingOther)} watch another node of the queue`);
  if (h.watchingNothing) parts.push(`${count(h.watchingNothing)} watch nothing at all`);
  if (h.unknown) parts.push(`${count(h.unknown)} on a member that would not list its watches`);
  const lines = [cell(`${RISK[h.risk]}: ${h.lock} (${h.recipe}): ${parts.join(', ')}`)];
  if (h.risk === 'herd' || h.risk === 'possible') {
    lines.push(h.unseen
      ? '  these waiters look like the herd recipe (getChildren with a watch on the lock): every change of the lock\'s children wakes them all, where watching only the predecessor wakes one'
      : '  several waiters watch the same node: its change wakes them all, where watching only the predecessor wakes one');
  }
  for (const w of h.named) lines.push(cell(`  ${w.seen}: ${w.node}  session ${w.session}  client ${w.clientAddress ?? '?'}  on ${w.server ?? '?'}`));
  return lines;
}

function herdPart(census: WatchCensus): string[] {
  if (census.herdUnavailable !== undefined) return [cell(`herd risk: the lock queues could not be read (${census.herdUnavailable})`)];
  if (census.herd.length === 0) return ['herd risk: no lock queue found'];
  return ['herd risk by lock queue', ...census.herd.flatMap(herdText)];
}

function fanOutPart(census: WatchCensus): string[] {
  const rows = census.servers.flatMap((s) => (s.fanOut ?? []).filter((f: FanOut) => f.changes > 0).map((f) => [
    s.server, f.event, count(f.changes), count(f.watchersFired), (f.watchersFired / f.changes).toFixed(1), count(f.most),
  ].map(cell)));
  if (rows.length === 0) return [];
  return ['fan-out since each member started (mntr): watchers one change fired',
    columns([['member', 'change', 'changes', 'watchers fired', 'per change', 'most'], ...rows])];
}

export function formatCensus(census: WatchCensus): string {
  const t = census.totals;
  const head = `watch census of ${counted(census.servers.length, 'member', 'members')}: ${count(t.dataWatches)} data watches listed`
    + `${t.childWatches === undefined ? '' : `, ${count(t.childWatches)} child watches (derived)`}${census.complete ? '' : ' (incomplete: see below)'}`;
  return [head, '', ...serversPart(census), '', ...sessionsPart(census), '', ...pathsPart(census), '', ...herdPart(census), '', ...fanOutPart(census)]
    .join('\n').replace(/\n{3,}/g, '\n\n').trimEnd();
}

const grewText = (g: { before?: number; now: number; grew: number; atLeast?: true }) =>
  `${g.before === undefined ? 'not listed' : count(g.before)} → ${count(g.now)} (+${g.atLeast ? 'at least ' : ''}${count(g.grew)})`;

export function formatComparison(c: CensusComparison): string {
  const lines = [`grown since the census of ${new Date(c.before).toISOString()}`];
  if (c.sessions.length) {
    lines.push('sessions', columns([['session', 'client', 'member', 'watches'], ...c.sessions.map((s) => [s.id, s.clientAddress ?? '?', s.server, grewText(s)].map(cell))]));
  }
  if (c.paths.length) lines.push('paths', columns([['path', 'watchers'], ...c.paths.map((p) => [p.path, grewText(p)].map(cell))]));
  if (!c.sessions.length && !c.paths.length) lines.push('no listed session or path has more watches than before');
  for (const s of c.servers) {
    const d = s.dataWatches;
    if (d.before !== undefined && d.now !== undefined && d.now !== d.before) lines.push(cell(`${s.server}: data watches ${count(d.before)} → ${count(d.now)}`));
    const ch = s.childWatches;
    if (ch.before !== undefined && ch.now !== undefined && ch.now !== ch.before) lines.push(cell(`${s.server}: child watches ${count(ch.before)} → ${count(ch.now)}`));
  }
  return lines.join('\n');
}

/** Watches from which a census is worth a word first: the members write every one of them. */
export const BIG_CENSUS_WATCHES = 100_000;

/** What the listing will cost, said before it starts when the members hold many watches; undefined when few. */
export function costText(costs: readonly MemberCost[]): string | undefined {
  const total = costs.reduce((sum, c) => sum + (c.watchCount ?? 0), 0);
  if (total < BIG_CENSUS_WATCHES) return undefined;
  const each = costs.map((c) => `${c.server} ${count(c.watchCount)}`).join(', ');
  return cell(`the members hold ${count(total)} watches (${each}): each writes its data watches out in turn (wchp), the most expensive answer a server gives; asking one member at a time`);
}
