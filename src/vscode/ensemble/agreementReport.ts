// The consistency check and the path comparison as a read-only Markdown report: the members side by side, flagged
// cells marked ⚠, the thresholds used. Everything that came from a server or a connection (addresses, errors, data,
// paths) goes through markdownSafe: no link, no markup, no hidden character survives.
import * as vscode from 'vscode';
import type { AgreementResult, MemberFlag, MemberVerdict } from '../../zk/servers/agreementRules';
import { FIGURE_NAMES, FigureName, zxidText } from '../../zk/servers/memberFigures';
import type { MemberPathRead, PathComparison, PathDifference } from '../../zk/servers/pathAcrossMembers';
import { shortened } from '../../shared/visibleText';
import { markdownSafe } from '../common/untrustedText';
import { modeLabel } from './ensembleItems';

const t = vscode.l10n.t;

function figureTitle(name: FigureName): string {
  switch (name) {
    case 'mode': return t('Mode');
    case 'zxid': return t('Last zxid (epoch/counter)');
    case 'znodes': return t('Znodes');
    case 'ephemerals': return t('Ephemerals');
    case 'connections': return t('Sessions');
    case 'watches': return t('Watches');
    case 'dataSize': return t('Data size (bytes)');
    case 'outstanding': return t('Outstanding requests');
    case 'latency': return t('Latency min/avg/max ms');
  }
}

/** The reasons memberFigures.ts gives, in the user's language. */
function unknownReason(reason: string): string {
  const refused = /^(\w+) not allowed$/.exec(reason);
  if (refused) return t('{0} not allowed by 4lw.commands.whitelist', refused[1]);
  const missing = /^not in the answer to (\w+)$/.exec(reason);
  if (missing) return t('not in the answer to {0}', missing[1]);
  return reason === 'not in the AdminServer answer' ? t('not in the AdminServer answer') : markdownSafe(reason);
}

export function flagLabel(flag: MemberFlag): string {
  switch (flag.kind) {
    case 'unreachable': return t('unreachable: {0}', markdownSafe(flag.reason));
    case 'notServing': return t('not serving (no quorum, or still syncing)');
    case 'lagging': return t('lagging: {0} transactions behind the leader ({1})', flag.behind, zxidText(flag.leaderZxid));
    case 'epochDiffers': return t('lagging: epoch {0}, the leader\'s is {1}', flag.epoch, flag.leaderEpoch);
    case 'disagrees': return t('disagrees: {0} znodes at the leader\'s zxid, the leader has {1}', flag.znodes, flag.leaderZnodes);
  }
}

/** The figure a flag is about, so its cell is marked. */
function flaggedFigure(flag: MemberFlag): FigureName {
  return flag.kind === 'lagging' || flag.kind === 'epochDiffers' ? 'zxid' : flag.kind === 'disagrees' ? 'znodes' : 'mode';
}

const marked = (text: string) => `**⚠ ${text}**`;

function figureCell(m: MemberVerdict, name: FigureName): string {
  const f = m.figures;
  let text: string;
  if (name === 'mode' && (m.unreachable !== undefined || m.notServing)) text = m.notServing ? t('not serving') : t('unreachable');
  else if (!f) text = '—';
  else if (name === 'mode') text = f.mode ? modeLabel(f.mode) : '?';
  else if (name === 'zxid') text = f.zxid ? `${zxidText(f.zxid)} (${f.zxid.epoch}/${f.zxid.counter})` : '?';
  else if (name === 'latency') text = f.latency ? `${f.latency.min}/${Math.round(f.latency.avg * 100) / 100}/${f.latency.max}` : '?';
  else text = f[name] === undefined ? '?' : String(f[name]);
  return m.flags.some((flag) => flaggedFigure(flag) === name) ? marked(text) : text;
}

const row = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;

export function agreementReport(connectionName: string, result: AgreementResult): string {
  const lines = [
    `# ${t('Do the members of {0} agree?', markdownSafe(connectionName))}`, '',
    result.agree ? t('All members agree.') : marked(t('The members do not agree.')), '',
    row([t('Member'), ...FIGURE_NAMES.map(figureTitle), t('Flags')]),
    row(Array(FIGURE_NAMES.length + 2).fill('---')),
  ];
  for (const m of result.members) {
    const flags = m.flags.length ? marked(m.flags.map(flagLabel).join('; ')) : t('agrees');
    lines.push(row([markdownSafe(m.address) + (m.isLeader ? ` ★` : ''), ...FIGURE_NAMES.map((n) => figureCell(m, n)), flags]));
  }
  lines.push('');
  for (const flag of result.flags) {
    lines.push(`- ${marked(flag.kind === 'noLeader' ? t('No leader: no member answered as the leader.') : t('Two leaders: {0}', flag.leaders.map(markdownSafe).join(', ')))}`);
  }
  for (const m of result.members) {
    const byReason = new Map<string, string[]>();
    for (const [name, reason] of Object.entries(m.figures?.unknown ?? {})) byReason.set(reason, [...(byReason.get(reason) ?? []), figureTitle(name as FigureName)]);
    for (const [reason, names] of byReason) lines.push(`- ${t('{0}: {1} unknown ({2})', markdownSafe(m.address), names.join(', '), unknownReason(reason))}`);
    if (m.adminError) lines.push(`- ${t('{0}: AdminServer not used ({1}); four-letter words asked', markdownSafe(m.address), markdownSafe(m.adminError))}`);
  }
  const th = result.thresholds;
  lines.push('', `## ${t('Thresholds')}`, '',
    `- ${t('Lagging: more than {0} transactions behind the leader; a member still in an older epoch lacks every transaction of the leader\'s (setting zooscope.ensemble.maxLagTransactions).', th.maxLagTransactions)}`,
    `- ${t('Disagreeing: the znode count differs from the leader\'s by more than {0} at the same zxid (setting zooscope.ensemble.znodeTolerance).', th.znodeTolerance)}`,
    `- ${t('Unreachable: no answer within {0} ms (setting zooscope.ensemble.memberDeadlineSeconds).', th.deadlineMs)}`,
    `- ${t('★ marks the leader. Figures are read from each member at about the same moment, not atomically.')}`);
  return lines.join('\n') + '\n';
}

function differenceLabel(d: PathDifference): string {
  switch (d) {
    case 'existence': return t('exists on one side only');
    case 'mzxid': return t('mzxid');
    case 'version': return t('version');
    case 'data': return t('data');
    case 'children': return t('children');
  }
}

function dataCell(read: MemberPathRead): string {
  if (read.data === undefined) return '—';
  return `${t('{0} bytes', read.data.length)}: ${markdownSafe(JSON.stringify(shortened(read.data.toString('utf8'), 40)))}`;
}

function comparedCell(c: PathComparison, m: MemberPathRead): string {
  if (m.error !== undefined) return marked(t('not read: {0}', markdownSafe(m.error)));
  if (m.address === c.reference) return t('the leader');
  if (m.differences === undefined) return '—';
  return m.differences.length ? marked(t('stale: {0} differ', m.differences.map(differenceLabel).join(', '))) : t('same as the leader');
}

export function pathReport(connectionName: string, c: PathComparison): string {
  const withChildren = c.members.some((m) => m.children !== undefined);
  const lines = [
    `# ${t('{0} as each member of {1} serves it', markdownSafe(c.path), markdownSafe(connectionName))}`, '',
    t('Each member was read alone (a session with only that member). No sync was issued, on purpose: a follower may legitimately be a little behind the leader, and this shows where it is.'), '',
    c.reference ? (c.stale ? marked(t('Some member serves other data than the leader.')) : t('Every member serves what the leader serves.')) : marked(t('No single leader answered: nothing to compare with.')), '',
    row([t('Member'), t('Exists'), t('mzxid'), t('Version'), t('Data'), ...(withChildren ? [t('Children')] : []), t('Compared with the leader')]),
    row(Array(withChildren ? 7 : 6).fill('---')),
  ];
  for (const m of c.members) {
    const stale = (d: PathDifference, text: string) => (m.differences?.includes(d) ? marked(text) : text);
    lines.push(row([
      markdownSafe(m.address) + (m.address === c.reference ? ' ★' : ''),
      m.exists === undefined ? '?' : stale('existence', m.exists ? t('yes') : t('no')),
      m.mzxid === undefined ? '—' : stale('mzxid', `0x${m.mzxid.toString(16)}`),
      m.version === undefined ? '—' : stale('version', String(m.version)),
      stale('data', dataCell(m)),
      ...(withChildren ? [m.children ? stale('children', String(m.children.length)) : '—'] : []),
      comparedCell(c, m),
    ]));
  }
  return lines.join('\n') + '\n';
}
