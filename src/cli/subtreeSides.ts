// The sides of `zooscope diff` and `zooscope copy`: `<connectString>/<path>` (the path after the first "/"; a
// connect string's own chroot is not accepted here, say the full path instead) or an export file (a file that
// exists, or `file:<name>`). One session per distinct connect string, shared by both sides when they are the same.
import * as fs from 'node:fs';
import type { CompareSide } from '../zk/compare';
import { DEFAULT_MAX_DATA_BYTES, DEFAULT_MAX_NODES } from '../zk/compare/subtreeRead';
import { SessionOptions, ZkSession } from '../zk/session/session';
import { parseExport } from '../zk/transfer';
import { visibleText } from '../shared/visibleText';
import { checkedConnectString, checkedPath, UsageError } from './args';
import type { ConnectionSettings } from './connectionOptions';

export type SideSpec = { kind: 'live'; connectString: string; path: string; text: string } | { kind: 'file'; file: string; text: string };

export function parseSide(text: string): SideSpec {
  const file = text.startsWith('file:') ? text.slice('file:'.length) : undefined;
  if (file !== undefined || isFile(text)) return { kind: 'file', file: file ?? text, text };
  const slash = text.indexOf('/');
  if (slash <= 0) throw new UsageError(`${JSON.stringify(visibleText(text))} is neither <connectString>/<path> nor an export file`);
  return { kind: 'live', connectString: checkedConnectString(text.slice(0, slash)), path: checkedPath(text.slice(slash), true), text };
}

function isFile(text: string): boolean {
  try {
    return fs.statSync(text).isFile();
  } catch {
    return false;
  }
}

/** The one line of a side whose read passed --max-nodes (or the data bound): nothing is kept, nothing written. */
export function tooLargeLine(side: string, path: string | undefined, maxNodes: number | undefined): string {
  return `the ${side} holds more than ${maxNodes ?? DEFAULT_MAX_NODES} nodes or ${DEFAULT_MAX_DATA_BYTES / 1024 / 1024} MiB of data`
    + `${path ? ` (reading ${path})` : ''}: stopped reading, nothing written; raise --max-nodes if the subtree really is that large`;
}

/** The options `zooscope diff` and `zooscope copy` share beside the connection options. */
export const SIDE_OPTIONS = {
  'max-nodes': { takes: `a whole number from 1 to ${Number.MAX_SAFE_INTEGER}` },
  'timeout': { takes: 'a number of seconds' },
} as const;

/** The connect strings of the live sides: where the credentials go. */
export function liveConnectStrings(...sides: SideSpec[]): string[] {
  return sides.flatMap((side) => (side.kind === 'live' ? [side.connectString] : []));
}

/**
 * The sessions of `zooscope diff` and `zooscope copy`: one timeout and one set of credentials for every side, each
 * made by `newSession` (the command's context: it warns and closes them).
 */
export function sideSessionsFor(timeoutMs: number, connection: ConnectionSettings, newSession: (options: SessionOptions) => ZkSession): SideSessions {
  return new SideSessions({ sessionTimeoutMs: Math.max(4000, timeoutMs), requestTimeoutMs: timeoutMs, ...connection }, newSession);
}

/** Opens the sessions the sides need (one per distinct connect string) and reads export files. */
export class SideSessions {
  private readonly sessions = new Map<string, ZkSession>();
  constructor(private readonly options: Omit<SessionOptions, 'connectString'>, private readonly newSession: (options: SessionOptions) => ZkSession) {}

  async open(spec: SideSpec): Promise<CompareSide> {
    if (spec.kind === 'file') {
      const parsed = parseExport(fs.readFileSync(spec.file, 'utf8'));
      if (!parsed.ok) throw new Error(`${spec.file}: not a ZooScope export (${parsed.problem.code})`);
      return { export: parsed.doc };
    }
    return { session: await this.session(spec.connectString), root: spec.path };
  }

  async session(connectString: string): Promise<ZkSession> {
    let session = this.sessions.get(connectString);
    if (!session) {
      session = this.newSession({ ...this.options, connectString });
      this.sessions.set(connectString, session);
      await session.open();
    }
    return session;
  }
}
