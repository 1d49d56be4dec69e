// `zooscope log … --sessions`: each session the logs name, when it began and ended, what it wrote (and, with an
// audit log joined, from where and as whom).
import type { AuditedItem, AuditJoin } from '../../../zk/serverLogs/auditJoin';
import { readLogSet, type LogSource } from '../../../zk/serverLogs/logSet';
import { SessionBook, type SessionSummary } from '../../../zk/serverLogs/sessionHistory';
import { zxidBound, type TxnQuery } from '../../../zk/serverLogs/txnFilter';
import { hex } from '../../../zk/stat';
import type { Output } from '../../output';
import { LineBatch } from './lineBatch';
import { matching, SaidIssues } from './reading';

/** `--sessions`: a line (or JSON line) per session the window's transactions name. */
export async function runSessions(sources: LogSource[], query: TxnQuery, json: boolean, out: Output, say: (line: string) => void, join?: AuditJoin): Promise<number> {
  const book = new SessionBook();
  const issues = new SaidIssues(say);
  const read = readLogSet(sources, { toZxid: zxidBound(query) });
  for await (const item of issues.said(matching(join ? join.items(read) : read, query))) {
    if (item.kind === 'txn') book.take(item.txn, (item as AuditedItem).audit);
  }
  const lines = new LineBatch(out, json);
  for (const summary of book.summaries()) {
    if (out.closed) return 0;
    lines.add(json ? JSON.stringify(sessionLine(summary)) : sessionText(summary));
  }
  lines.flush();
  return issues.troubled ? 1 : 0;
}

function sessionLine(s: SessionSummary): Record<string, unknown> {
  return { ...s, session: hex(s.session) };
}

function sessionText(s: SessionSummary): string {
  const began = s.began === undefined ? 'began before these logs' : `began ${new Date(s.began).toISOString()} (timeout ${s.timeoutMs} ms)`;
  const ended = s.ended === undefined ? 'not ended in these logs' : `${s.end === 'expired' ? 'expired' : 'closed by its client'} ${new Date(s.ended).toISOString()}`;
  const gone = s.ephemeralsAtEnd && s.ephemeralsAtEnd.length > 0 ? `; its end removed ${s.ephemeralsAtEnd.join(' ')}` : '';
  const from = s.clients ? `; from ${s.clients.join(' ')}` : '';
  const users = s.users ? `; as ${s.users.map((u) => JSON.stringify(u)).join(' ')}` : '';
  return `${hex(s.session)} ${began}, ${ended}: created ${s.created}, deleted ${s.deleted}, other writes ${s.otherWrites}, failed ${s.failed}${gone}${from}${users}`;
}
