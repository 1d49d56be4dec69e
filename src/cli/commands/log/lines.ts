// `zooscope log`'s lines: a transaction a line (or JSON line), or with --history the versions of one path and its
// removal; with an audit log joined, each write's client and user.
import { auditFields, auditText, type AuditedItem, type AuditJoin, type AuditMatch } from '../../../zk/serverLogs/auditJoin';
import { readLogSet, readLogSetBatches, type LogSource } from '../../../zk/serverLogs/logSet';
import { nodeHistory, type HistoryEntry } from '../../../zk/serverLogs/nodeHistory';
import { pastWindow, txnMatcher, zxidBound, type TxnQuery } from '../../../zk/serverLogs/txnFilter';
import { hex } from '../../../zk/stat';
import type { Output } from '../../output';
import { dataFields, dataSummary, LineBatch } from './lineBatch';
import { matching } from './reading';
import { txnJson } from './txnJson';

export function historyLine(entry: HistoryEntry, audit?: AuditMatch): Record<string, unknown> {
  const { zxid, time, session, data, ttl, ...rest } = entry;
  return { zxid: hex(zxid), time, session: hex(session), ...rest, ...(data === undefined ? {} : dataFields(data)), ...(ttl === undefined ? {} : { ttl: String(ttl) }), ...auditFields(audit) };
}

const REMOVALS: Record<NonNullable<HistoryEntry['removed']>, string> = {
  deleted: 'deleted by this session',
  sessionClosed: 'gone with its session, closed by its client (ephemeral)',
  sessionExpired: 'gone with its session, which expired (ephemeral)',
  containerEmptied: 'container emptied, removed by the server',
  ttlExpired: 'TTL expired, removed by the server',
  removedByServer: 'removed by the server',
};

function historyText(entry: HistoryEntry, audit?: AuditMatch): string {
  const head = `${hex(entry.zxid)} ${new Date(entry.time).toISOString()} ${hex(entry.session)}${auditText(audit)} ${entry.op}${entry.inMulti ? ' (in a multi)' : ''} ${entry.path}`;
  if (entry.removed) return `${head}: ${REMOVALS[entry.removed]}`;
  const version = entry.version === undefined ? '' : entry.op === 'setACL' ? `, ACL version ${entry.version}` : `, version ${entry.version}`;
  const acl = entry.acl ? `, ACL ${entry.acl.map((a) => `${a.scheme}:${a.id}:${a.perms}`).join(' ')}` : '';
  return `${head}${version}${dataSummary(entry.data)}${acl}${entry.ephemeral ? ', ephemeral' : ''}`;
}

/** The transactions' lines, or `--history`'s; with their clients when an audit log is joined. */
export async function runLines(sources: LogSource[], { json, query, history }: { json: boolean; query: TxnQuery; history?: string }, out: Output, join?: AuditJoin): Promise<number> {
  const toZxid = zxidBound(query);
  const lines = new LineBatch(out, json);
  let troubled = false;
  const issue = (message: string) => {
    troubled = true;
    lines.flush(); // in its place among the lines
    out.error(message);
  };
  if (history !== undefined) {
    // Joined before the query's filter, so that the writes it leaves out still take their own audit lines.
    const read = readLogSet(sources, { toZxid });
    for await (const item of nodeHistory(matching(join ? join.items(read) : read, query), history)) {
      if (out.closed) return 0;
      if (item.kind === 'issue') issue(item.issue.message);
      else {
        const audit = join?.recentMatch(item.entry.zxid);
        lines.add(json ? JSON.stringify(historyLine(item.entry, audit)) : historyText(item.entry, audit));
      }
    }
  } else {
    // A batch at a time: a log has millions of transactions.
    const matches = !query.from && !query.to && !query.session && !query.paths ? undefined : txnMatcher(query);
    const batches = readLogSetBatches(sources, { toZxid });
    reading: for await (const batch of join ? join.batches(batches) : batches) {
      if (out.closed) return 0;
      for (const item of batch) {
        if (item.kind === 'issue') {
          issue(item.issue.message);
          continue;
        }
        const { txn, audit } = item as AuditedItem & { kind: 'txn' };
        if (matches && pastWindow(query, txn)) break reading;
        if (matches && !matches(txn)) continue;
        lines.add(json ? txnJson(txn, auditFields(audit)) : `${hex(txn.zxid)} ${new Date(txn.time).toISOString()} ${hex(txn.session)}${auditText(audit)} ${txn.record.op}${'path' in txn.record ? ' ' + txn.record.path : ''}`);
      }
    }
  }
  lines.flush();
  return troubled ? 1 : 0;
}
