// Sessions as the logs tell them: when each began (createSession, with the timeout the server granted) and ended
// (closeSession: by its client, or by the server when it expired, cxid 0), what it wrote, and the ephemeral nodes it
// still held when it ended (3.6+ lists them in the close; older servers' creates tell whose they were). A session
// that began before the logs given, or had not ended by their end, says so.
import type { AuditMatch } from './auditJoin';
import type { Txn, TxnRecord } from './txnTypes';

export interface SessionSummary {
  session: bigint;
  /** The leader's time of its createSession; undefined when it began before the logs. */
  began?: number;
  /** Negotiated timeout (ms), from createSession. */
  timeoutMs?: number;
  ended?: number;
  /** closed: its client closed it; expired: the server closed it (its client was gone for the timeout). */
  end?: 'closed' | 'expired';
  /** Nodes it created, deleted, and other writes (setData, setACL), multis' parts counted one by one. */
  created: number;
  deleted: number;
  otherWrites: number;
  /** Failed writes (error transactions, failed multis). */
  failed: number;
  /** The ephemeral nodes its end removed. */
  ephemeralsAtEnd?: string[];
  /** The client addresses and users its writes came from, as the audit log matched them (none without one). */
  clients?: string[];
  users?: string[];
}

/** Distinct addresses or users kept per session (a session has one or two: more is a pathological log). */
const MAX_KEPT = 16;

function remember(list: string[] | undefined, value: string | undefined): string[] | undefined {
  if (value === undefined || list?.includes(value) || (list?.length ?? 0) >= MAX_KEPT) return list;
  return [...(list ?? []), value];
}

export class SessionBook {
  private readonly sessions = new Map<bigint, SessionSummary>();
  /** Ephemerals created in the logs, by owner (for closes of servers that did not list them). */
  private readonly ephemerals = new Map<bigint, Set<string>>();
  private readonly owners = new Map<string, bigint>();

  private of(session: bigint): SessionSummary {
    let summary = this.sessions.get(session);
    if (!summary) this.sessions.set(session, (summary = { session, created: 0, deleted: 0, otherWrites: 0, failed: 0 }));
    return summary;
  }

  /** A transaction, with its client and user when the audit log had its line. */
  take(txn: Txn, audit?: AuditMatch): void {
    if (txn.session === 0n) return; // the server's own work (containers, TTLs) belongs to no session
    if (audit) {
      const summary = this.of(txn.session);
      const clients = remember(summary.clients, audit.client);
      const users = remember(summary.users, audit.user);
      if (clients) summary.clients = clients;
      if (users) summary.users = users;
    }
    const record = txn.record;
    if (record.op === 'createSession') {
      const summary = this.of(txn.session);
      summary.began = txn.time;
      summary.timeoutMs = record.timeout;
      return;
    }
    if (record.op === 'closeSession') {
      const summary = this.of(txn.session);
      summary.ended = txn.time;
      summary.end = txn.cxid === 0 ? 'expired' : 'closed';
      const owned = this.ephemerals.get(txn.session) ?? new Set<string>();
      summary.ephemeralsAtEnd = record.paths ?? [...owned];
      for (const path of owned) this.owners.delete(path);
      this.ephemerals.delete(txn.session);
      return;
    }
    const summary = this.of(txn.session);
    if (record.op === 'multi' && record.parts.some((part) => part.op === 'error')) {
      summary.failed++;
      return;
    }
    this.count(summary, record, txn.session);
  }

  private count(summary: SessionSummary, record: TxnRecord, session: bigint): void {
    switch (record.op) {
      case 'multi':
        for (const part of record.parts) this.count(summary, part, session);
        return;
      case 'create':
      case 'create2':
      case 'createContainer':
      case 'createTTL':
        summary.created++;
        if ('ephemeral' in record && record.ephemeral) {
          let owned = this.ephemerals.get(session);
          if (!owned) this.ephemerals.set(session, (owned = new Set()));
          owned.add(record.path);
          this.owners.set(record.path, session);
        }
        return;
      case 'delete':
      case 'deleteContainer':
        summary.deleted++;
        this.forget(record.path);
        return;
      case 'setData':
      case 'reconfig':
      case 'setACL':
        summary.otherWrites++;
        return;
      case 'error':
        summary.failed++;
        return;
      default:
        return;
    }
  }

  private forget(path: string): void {
    const owner = this.owners.get(path);
    if (owner === undefined) return;
    this.owners.delete(path);
    this.ephemerals.get(owner)?.delete(path);
  }

  /** Every session seen, in the order each first appeared. */
  summaries(): SessionSummary[] {
    return [...this.sessions.values()];
  }
}
