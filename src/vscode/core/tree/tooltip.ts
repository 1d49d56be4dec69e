// The Markdown tooltip of a znode: all 11 Stat fields, exact, plus the owner session's client where a server tells.
import * as vscode from 'vscode';
import { hex, NodeKind, nodeKind, ttlMillis, ZnodeStat } from '../../../zk/stat';
import { aclLines, AclView } from '../../common/aclText';
import { escapeMarkdown, formatBytes, formatTime } from '../../common/format';
import { QuotaInfo, statsValue } from '../../../zk/tree/quota';
import { kindNameWith } from '../../../zk/tree/znodePresentation';
import type { Decoded } from '../../../zk/decoders';
import { flatFields, decodedHeading, decodedSummary, notDecodedLine } from '../../../zk/decoders/decodedText';

const t = vscode.l10n.t;

export const kindName = (kind: NodeKind): string => kindNameWith(t, kind);

export function kindLabel(stat: ZnodeStat, sequential: boolean, kind?: NodeKind): string {
  const base = kindName(kind ?? nodeKind(stat));
  return sequential ? t('{0}, sequential', base) : base;
}

const limitText = (value: bigint): string => (value > -1n ? String(value) : t('none'));

/** A node's quota as lines: usage, then soft and hard limits, for nodes and bytes (the server keeps the usage). */
export function quotaLines(quota: QuotaInfo): string[] {
  const line = (what: string, used: bigint, soft: bigint, hard: bigint) =>
    t('{0}: {1} used · soft limit {2} · hard limit {3}', what, String(used), limitText(soft), limitText(hard));
  return [
    line(t('Nodes'), statsValue(quota.usage, 'count'), statsValue(quota.limits, 'count'), statsValue(quota.limits, 'countHardLimit')),
    line(t('Bytes'), statsValue(quota.usage, 'bytes'), statsValue(quota.limits, 'bytes'), statsValue(quota.limits, 'byteHardLimit')),
  ];
}

/** `extras.kind`: the mode this window created the node with; `extras.acl`: its ACL, read on hover; `extras.quota`: its quota. */
export function statTooltip(path: string, stat: ZnodeStat, sequential: boolean, ownerClient: string | undefined, ownSession: boolean,
  extras: { kind?: NodeKind; acl?: AclView; quota?: QuotaInfo; decoded?: Decoded } = {}): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, false);
  md.isTrusted = false;
  md.supportHtml = false;
  const ttl = ttlMillis(stat);
  md.appendMarkdown(`**${escapeMarkdown(path)}**\n\n`);
  md.appendMarkdown(`${escapeMarkdown(kindLabel(stat, sequential, extras.kind))}${ttl !== undefined ? ` · TTL ${ttl} ms` : ''}\n\n`);
  const rows: [string, string][] = [
    ['czxid', hex(stat.czxid)],
    ['mzxid', hex(stat.mzxid)],
    ['pzxid', hex(stat.pzxid)],
    ['ctime', formatTime(stat.ctime)],
    ['mtime', formatTime(stat.mtime)],
    ['version', String(stat.version)],
    ['cversion', String(stat.cversion)],
    ['aversion', String(stat.aversion)],
    ['ephemeralOwner', hex(stat.ephemeralOwner)],
    ['dataLength', `${stat.dataLength} (${formatBytes(stat.dataLength)})`],
    ['numChildren', String(stat.numChildren)],
  ];
  if (extras.decoded) md.appendMarkdown(decodedMarkdown(extras.decoded));
  md.appendMarkdown(`| ${t('Field')} | ${t('Value')} |\n|---|---|\n`);
  for (const [field, value] of rows) md.appendMarkdown(`| ${field} | ${escapeMarkdown(value)} |\n`);
  if (nodeKind(stat) === 'ephemeral') {
    md.appendMarkdown('\n');
    const owner = hex(stat.ephemeralOwner);
    md.appendMarkdown(escapeMarkdown(ownSession ? t('Owner session {0} (this window\'s session)', owner) : t('Owner session {0}', owner)));
    md.appendMarkdown(escapeMarkdown(ownerClient ? t(', client {0}', ownerClient) : t(', client address not reported by the servers')));
  }
  if (extras.quota) md.appendMarkdown(`\n\n**${escapeMarkdown(t('Quota'))}**\n\n${quotaLines(extras.quota).map((line) => `- ${escapeMarkdown(line)}`).join('\n')}\n`);
  if (extras.acl) md.appendMarkdown(`\n\n**ACL**\n\n${aclLines(extras.acl).map((line) => `- ${escapeMarkdown(line)}`).join('\n')}\n`);
  return md;
}

const MAX_TOOLTIP_ROWS = 20;

/** The meaning first (what people came for): heading, summary, up to MAX_TOOLTIP_ROWS fields. Everything escaped. */
export function decodedMarkdown(decoded: Decoded): string {
  let text = `**${escapeMarkdown(decodedHeading(decoded))}**\n\n`;
  if (decoded.raw) return `${text}${escapeMarkdown(notDecodedLine(decoded, t))}\n\n`;
  if (decoded.summary) text += `${escapeMarkdown(decodedSummary(decoded))}\n\n`;
  const rows = flatFields(decoded.fields);
  if (rows.length) {
    text += `| ${t('Field')} | ${t('Value')} |\n|---|---|\n`;
    for (const [label, value] of rows.slice(0, MAX_TOOLTIP_ROWS)) text += `| ${escapeMarkdown(label)} | ${escapeMarkdown(value)} |\n`;
    if (rows.length > MAX_TOOLTIP_ROWS) text += `\n${escapeMarkdown(t('… {0} more in Show Details', rows.length - MAX_TOOLTIP_ROWS))}\n`;
    text += '\n';
  }
  return text;
}
