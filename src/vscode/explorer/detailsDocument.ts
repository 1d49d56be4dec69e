// "Show Details": a read-only document with a node's Stat and data (text when it is UTF-8, a hex dump otherwise),
// kept up to date by a watch while it is open.
import * as vscode from 'vscode';
import { hex, nodeKind, ZnodeStat } from '../../zk/stat';
import type { ConnectionManager, LiveConnection } from '../core/connectionManager';
import { formatTime } from '../common/format';
import { LiveNodeDocuments, nodeDocumentUri } from '../core/liveNodeDocuments';
import { kindLabel } from '../core/tree/tooltip';
import { aclLines, AclView, readAcl } from '../common/aclText';
import { sequenceNumber } from '../../zk/tree/naturalOrder';
import { baseName } from '../../zk/paths';
import { QuotaInfo, readQuota } from '../../zk/tree/quota';
import { quotaLines } from '../core/tree/tooltip';
import { syncBeforeRead } from '../core/settings';
import { readDecodeContext, sessionContextRead } from '../../zk/decoders';
import type { Decoded, DecodeContext } from '../../zk/decoders';
import { decodedLines } from '../../zk/decoders/decodedText';
import { visibleText } from '../../shared/visibleText';

export const DETAILS_SCHEME = 'zooscope-details';
const t = vscode.l10n.t;

export function detailsUri(connectionId: string, path: string): vscode.Uri {
  return nodeDocumentUri(DETAILS_SCHEME, 'details', connectionId, path);
}

/** UTF-8 text if the bytes decode without loss and hold no control characters besides whitespace. */
export function asText(data: Buffer): string | undefined {
  const text = data.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(data)) return undefined;
  return /[\u0000-\u0008\u000e-\u001f\u007f]/.test(text) ? undefined : text;
}

export function hexDump(data: Buffer, maxBytes = 64 * 1024): string {
  const lines: string[] = [];
  for (let offset = 0; offset < Math.min(data.length, maxBytes); offset += 16) {
    const row = data.subarray(offset, offset + 16);
    const bytes = [...row].map((b) => b.toString(16).padStart(2, '0')).join(' ');
    const ascii = [...row].map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('');
    lines.push(`${offset.toString(16).padStart(8, '0')}  ${bytes.padEnd(47)}  ${ascii}`);
  }
  if (data.length > maxBytes) lines.push(t('… {0} more bytes', data.length - maxBytes));
  return lines.join('\n');
}

/** The meaning's section of Show Details: its fields, or why the bytes were not decoded (the data follows below). */
export function decodedSection(decoded: Decoded): string {
  return `\n\n${decodedLines(decoded, t).join('\n')}`;
}

export function renderDetails(path: string, stat: ZnodeStat, data: Buffer, acl?: AclView, quota?: QuotaInfo, decoded?: Decoded): string {
  const text = asText(data);
  const rows: [string, string][] = [
    [t('Path'), visibleText(path)], [t('Kind'), kindLabel(stat, sequenceNumber(baseName(path)) !== undefined)],
    ['czxid', hex(stat.czxid)], ['mzxid', hex(stat.mzxid)], ['pzxid', hex(stat.pzxid)],
    ['ctime', formatTime(stat.ctime)], ['mtime', formatTime(stat.mtime)],
    ['version', String(stat.version)], ['cversion', String(stat.cversion)], ['aversion', String(stat.aversion)],
    ['ephemeralOwner', hex(stat.ephemeralOwner) + (nodeKind(stat) === 'ephemeral' ? ` (${t('session')})` : '')],
    ['dataLength', String(stat.dataLength)], ['numChildren', String(stat.numChildren)],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  const header = rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n');
  const title = data.length === 0 ? t('Data: empty') : text !== undefined ? t('Data: {0} bytes, UTF-8 text', data.length) : t('Data: {0} bytes, binary (hex)', data.length);
  const aclSection = acl ? `\n\n── ${t('ACL')} ──\n${aclLines(acl).join('\n')}` : '';
  const quotaSection = quota ? `\n\n── ${t('Quota')} ──\n${quotaLines(quota).join('\n')}` : '';
  const decodedText = decoded ? decodedSection(decoded) : '';
  return `${header}${decodedText}${aclSection}${quotaSection}\n\n── ${title} ──\n${text ?? hexDump(data)}\n`;
}

export class DetailsProvider extends LiveNodeDocuments {
  /** `decode`: the node's meaning from data just read (the tree remembers it, so its item shows it too). */
  constructor(connections: ConnectionManager,
    private readonly decode: (connectionId: string, path: string, mzxid: bigint, data: Buffer, context: DecodeContext) => Decoded | undefined = () => undefined) {
    super(connections, DETAILS_SCHEME);
  }

  protected async render(live: LiveConnection, connectionId: string, path: string): Promise<string> {
    // zooscope.syncBeforeRead: a session on a lagging follower catches up with the leader before the read.
    if (syncBeforeRead()) await live.session.sync(path).catch(() => undefined);
    // The related nodes a meaning uses (a Patroni member's lag: the leader's status) are known from the path alone.
    const [{ data, stat }, acl, quota, context] = await Promise.all([live.session.getData(path), readAcl(live.session, path),
      readQuota(live.session, path).catch(() => undefined), readDecodeContext(path, sessionContextRead(live.session))]);
    return renderDetails(path, stat, data, acl, quota, this.decode(connectionId, path, stat.mzxid, data, context));
  }
}
