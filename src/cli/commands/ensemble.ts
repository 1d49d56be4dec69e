// `zooscope ensemble <connectString> --check [--path <p>] [--children] [--json]`: do the members agree? One row per
// member (mode, zxid, counts, latency, flags), the thresholds used, and, with --path, the path as each member
// serves it. Exit codes: 0 all agree, 1 a member lags, disagrees, is unreachable or serves the path stale (or there
// is no single leader), 2 a usage error or a failure to check at all.
import { AgreementResult, AgreementThresholds, MemberFlag, MemberVerdict } from '../../zk/servers/agreementRules';
import { checkEnsemble } from '../../zk/servers/consistencyCheck';
import { FIGURE_NAMES, FigureName, zxidText } from '../../zk/servers/memberFigures';
import { comparePathAcrossMembers, MemberPathRead, PathComparison } from '../../zk/servers/pathAcrossMembers';
import { isConnectStringProblem, parseConnectString } from '../../zk/connectString';
import { prepareTls } from '../../zk/security/tlsSettings';
import { dialerFor } from '../../zk/tunnel/dialer';
import { shortened, visibleText } from '../../shared/visibleText';
import { checkedConnectString, checkedPath, integerOf, secondsOf, UsageError } from '../args';
import { columns } from '../columns';
import { defineCommand, usageText } from '../command';
import type { ConnectionSettings } from '../connectionOptions';

const USAGE = `zooscope ensemble <connectString> --check [--path <path> [--children]] [--json] [--admin-port <port>]
                  [--max-lag <transactions>] [--znode-tolerance <n>] [--deadline <seconds>] [security options]`;

const OPTIONS = {
  'check': {},
  'json': {},
  'children': {},
  'path': { takes: 'a znode path' },
  'admin-port': { takes: 'a whole number from 1 to 65535' },
  'max-lag': { takes: `a whole number from 0 to ${0xffffffff}` },
  'znode-tolerance': { takes: `a whole number from 0 to ${Number.MAX_SAFE_INTEGER}` },
  'deadline': { takes: 'a number of seconds' },
} as const;

interface EnsembleArgs {
  connectString: string;
  path?: string;
  children: boolean;
  json: boolean;
  adminPort?: number;
  thresholds: Partial<AgreementThresholds>;
  security: ConnectionSettings;
}

export const ensembleCommand = defineCommand({
  name: 'ensemble',
  summary: 'do the members agree: one row a member (mode, zxid, counts, latency), and a path as each serves it',
  usage: USAGE,
  details: `  only the members named in <connectString> are asked: the servers' own member list (/zookeeper/config) is not
    followed, so your credentials and client certificate go to no host you did not name
  exit codes: 0 all agree, 1 a member lags, disagrees, is unreachable or serves the path stale, 2 usage or no check at all`,
  options: OPTIONS,
  connects: true,
  failureExit: 2,
  parse({ values, positionals, connection }): EnsembleArgs {
    const thresholds: Partial<AgreementThresholds> = {};
    if (values['max-lag'] !== undefined) thresholds.maxLagTransactions = integerOf(values['max-lag'], '--max-lag', 0, 0xffffffff);
    if (values['znode-tolerance'] !== undefined) thresholds.znodeTolerance = integerOf(values['znode-tolerance'], '--znode-tolerance', 0, Number.MAX_SAFE_INTEGER);
    if (values.deadline !== undefined) thresholds.deadlineMs = secondsOf(values.deadline, '--deadline', 100, 600_000);
    const path = values.path === undefined ? undefined : checkedPath(values.path, true);
    const adminPort = values['admin-port'] === undefined ? undefined : integerOf(values['admin-port'], '--admin-port', 1, 65535);
    if (!values.check) throw new UsageError(`--check is the one thing ensemble does for now\n${usageText(USAGE)}`);
    if (positionals.length !== 1) throw new UsageError(`expected <connectString>\n${usageText(USAGE)}`);
    if (values.children && path === undefined) throw new UsageError('--children goes with --path');
    return { connectString: checkedConnectString(positionals[0]), path, children: !!values.children, json: !!values.json, adminPort, thresholds, security: connection };
  },
  reaches: (parsed) => [parsed.connectString],
  async run(parsed, { out }) {
    const { tls, ssh } = parsed.security;
    const result = await checkEnsemble(parsed.connectString, {
      thresholds: parsed.thresholds, adminPort: parsed.adminPort, tls: tls ? prepareTls(tls) : undefined, dialer: dialerFor(ssh),
    });
    const comparison = parsed.path === undefined ? undefined : await comparePathAcrossMembers(result.members.map((m) => m.address), parsed.path, {
      leader: result.leader, withChildren: parsed.children, deadlineMs: result.thresholds.deadlineMs,
      session: { ...parsed.security, chroot: chrootOf(parsed.connectString) },
    });
    if (parsed.json) out.json({ check: agreementJson(result), ...(comparison ? { path: pathJson(comparison) } : {}) });
    else out.text([formatAgreement(result), ...(comparison ? ['', formatPathComparison(comparison)] : [])].join('\n'));
    return result.agree && !comparison?.stale ? 0 : 1;
  },
});

const FIGURE_TITLES: Record<FigureName, string> = {
  mode: 'mode', zxid: 'zxid (epoch/counter)', znodes: 'znodes', ephemerals: 'ephemerals', connections: 'sessions',
  watches: 'watches', dataSize: 'data size', outstanding: 'outstanding', latency: 'latency min/avg/max ms',
};

function figureCell(m: MemberVerdict, name: FigureName): string {
  const f = m.figures;
  if (!f) return '-';
  if (name === 'zxid') return f.zxid ? `${zxidText(f.zxid)} (${f.zxid.epoch}/${f.zxid.counter})` : '?';
  if (name === 'latency') return f.latency ? `${f.latency.min}/${Math.round(f.latency.avg * 100) / 100}/${f.latency.max}` : '?';
  const value = f[name];
  return value === undefined ? '?' : String(value);
}

export function flagText(flag: MemberFlag): string {
  switch (flag.kind) {
    case 'unreachable': return `UNREACHABLE (${flag.reason})`;
    case 'notServing': return 'NOT SERVING (no quorum, or still syncing)';
    case 'lagging': return `LAGGING ${flag.behind} transactions behind the leader (${zxidText(flag.leaderZxid)})`;
    case 'epochDiffers': return `LAGGING: epoch ${flag.epoch}, the leader's is ${flag.leaderEpoch}`;
    case 'disagrees': return `DISAGREES: ${flag.znodes} znodes at the leader's zxid, the leader has ${flag.leaderZnodes}`;
  }
}


const cell = (text: string) => visibleText(shortened(text, 200));

export function formatAgreement(result: AgreementResult): string {
  const header = ['member', ...FIGURE_NAMES.map((n) => FIGURE_TITLES[n]), 'flags'];
  const rows = result.members.map((m) => [
    cell(m.address),
    ...FIGURE_NAMES.map((n) => cell(figureCell(m, n))),
    cell(m.flags.length ? m.flags.map(flagText).join('; ') : 'ok'),
  ]);
  const lines = [columns([header, ...rows]), ''];
  for (const m of result.members) {
    const unknown = Object.entries(m.figures?.unknown ?? {});
    const byReason = new Map<string, string[]>();
    for (const [name, reason] of unknown) byReason.set(reason, [...(byReason.get(reason) ?? []), FIGURE_TITLES[name as FigureName]]);
    for (const [reason, names] of byReason) lines.push(cell(`${m.address}: ${names.join(', ')} unknown (${reason})`));
    if (m.adminError) lines.push(cell(`${m.address}: AdminServer not used (${m.adminError}); four-letter words asked`));
  }
  for (const flag of result.flags) lines.push(flag.kind === 'noLeader' ? 'NO LEADER: no member answered as the leader' : cell(`TWO LEADERS: ${flag.leaders.join(', ')}`));
  const t = result.thresholds;
  lines.push(`thresholds: lagging when more than ${t.maxLagTransactions} transactions behind the leader (a member still in an older epoch lacks every transaction of the leader's); `
    + `disagreeing when the znode count differs by more than ${t.znodeTolerance} at the leader's zxid; each member within ${t.deadlineMs} ms`);
  lines.push(result.agree ? 'all members agree' : 'members do not agree');
  return lines.join('\n');
}

function dataCell(read: MemberPathRead): string {
  if (read.data === undefined) return '-';
  return `${read.data.length} bytes ${JSON.stringify(shortened(read.data.toString('utf8'), 40))}`;
}

export function formatPathComparison(c: PathComparison): string {
  const header = ['member', 'exists', 'mzxid', 'version', 'data', ...(c.members.some((m) => m.children) ? ['children'] : []), 'compared with the leader'];
  const rows = c.members.map((m) => [
    m.address, m.error ? '?' : String(m.exists), m.mzxid !== undefined ? `0x${m.mzxid.toString(16)}` : '-', m.version !== undefined ? String(m.version) : '-',
    dataCell(m), ...(c.members.some((x) => x.children) ? [m.children ? String(m.children.length) : '-'] : []),
    m.error ? `UNREADABLE (${m.error})` : m.address === c.reference ? 'leader' : m.differences === undefined ? '-' : m.differences.length ? `STALE: ${m.differences.join(', ')} differ` : 'same',
  ].map(cell));
  return [
    cell(`path ${c.path} as each member serves it`),
    columns([header, ...rows]),
    c.reference ? 'no sync is issued here, on purpose: a follower may legitimately be a little behind the leader' : 'no single leader answered: nothing to compare with',
  ].join('\n');
}

function pathJson(c: PathComparison): unknown {
  return {
    path: c.path, reference: c.reference, stale: c.stale, syncIssued: false,
    members: c.members.map((m) => ({
      address: m.address, error: m.error, exists: m.exists, mzxid: m.mzxid !== undefined ? `0x${m.mzxid.toString(16)}` : undefined,
      version: m.version, dataLength: m.dataLength, dataBase64: m.data?.toString('base64'), children: m.children, differences: m.differences,
    })),
  };
}

function agreementJson(result: AgreementResult): unknown {
  return {
    ...result,
    members: result.members.map((m) => ({ ...m, figures: m.figures && { ...m.figures, zxid: m.figures.zxid && { ...m.figures.zxid, hex: zxidText(m.figures.zxid) } } })),
  };
}

/** The connect string's own chroot (`host:port/app`): each member's session reads under it, as a session would. */
function chrootOf(connectString: string): string | undefined {
  const parsed = parseConnectString(connectString);
  return isConnectStringProblem(parsed) ? undefined : parsed.chroot;
}
