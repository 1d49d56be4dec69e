// The sides of `zooscope diff` and `zooscope copy`: `<connectString>/<path>` (the path after the first "/"; a
// connect string's own chroot is not accepted here, say the full path instead) or an export file (a file that
// exists, or `file:<name>`). One session per distinct connect string, shared by both sides when they are the same.
import * as fs from 'node:fs';
import type { CompareSide } from '../zk/compare';
import { SessionOptions, ZkSession } from '../zk/session/session';
import { parseExport } from '../zk/transfer';
import { visibleText } from '../shared/visibleText';
import { checkedConnectString, checkedPath, UsageError } from './args';

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

/** Opens the sessions the sides need and reads export files; `close` closes every session. */
/** The sessions of `zooscope diff` and `zooscope copy`: one timeout and one set of credentials for every side. */
export function sideSessionsFor(timeoutMs: number, security: Pick<SessionOptions, 'digest' | 'tls' | 'sasl' | 'ssh'>): SideSessions {
  return new SideSessions({
    sessionTimeoutMs: Math.max(4000, timeoutMs), requestTimeoutMs: timeoutMs, digest: security.digest ?? [],
    tls: security.tls, sasl: security.sasl, ssh: security.ssh,
  });
}

export class SideSessions {
  private readonly sessions = new Map<string, ZkSession>();
  constructor(private readonly options: Omit<SessionOptions, 'connectString'>) {}

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
      session = new ZkSession({ ...this.options, connectString });
      this.sessions.set(connectString, session);
      await session.open();
    }
    return session;
  }

  close(): void {
    for (const session of this.sessions.values()) session.close();
  }
}
