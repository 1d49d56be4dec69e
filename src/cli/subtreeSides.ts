// The sides of `zooscope diff` and `zooscope copy`: `<connectString>/<path>` (the path after the first "/"; a
// connect string's own chroot is not accepted here, say the full path instead) or an export file (a file that
// exists, or `file:<name>`). One session per distinct connect string, shared by both sides when they are the same.
import * as fs from 'node:fs';
import type { CompareSide } from '../zk/compare';
import { DEFAULT_MAX_DATA_BYTES, DEFAULT_MAX_NODES } from '../zk/compare/subtreeRead';
import { SessionOptions, ZkSession } from '../zk/session/session';
import { parseExport } from '../zk/transfer';
import { visibleText } from '../shared/visibleText';
import { isZkError } from '../zk/errors';
import { checkedConnectString, checkedPath, CREDENTIALS_HINT, UsageError } from './args';
import type { Output } from './output';
import { digestInClearNotice, type SecurityArgs } from './securityArgs';

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
export function tooLargeLine(command: string, side: string, path: string | undefined, maxNodes: number | undefined): string {
  return `zooscope ${command}: the ${side} holds more than ${maxNodes ?? DEFAULT_MAX_NODES} nodes or ${DEFAULT_MAX_DATA_BYTES / 1024 / 1024} MiB of data`
    + `${path ? ` (reading ${path})` : ''}: stopped reading, nothing written; raise --max-nodes if the subtree really is that large`;
}

/** The sessions of `zooscope diff` and `zooscope copy`: one timeout and one set of credentials for every side. */
export function sideSessionsFor(
  timeoutMs: number, security: Pick<SessionOptions, 'digest' | 'tls' | 'sasl' | 'ssh'>, warn: (line: string) => void = () => undefined,
): SideSessions {
  return new SideSessions({
    sessionTimeoutMs: Math.max(4000, timeoutMs), requestTimeoutMs: timeoutMs, digest: security.digest ?? [],
    tls: security.tls, sasl: security.sasl, ssh: security.ssh,
  }, warn);
}

/**
 * Runs `zooscope diff` or `zooscope copy`: a usage error is exit 2 with a one-line message, the body gets the sides'
 * sessions, which are closed however it ends, and a failure it does not handle is exit 2 (with the credentials hint
 * when an ACL refused the session).
 */
export async function runWithSides<A extends { security: SecurityArgs; timeoutMs: number }>(
  command: string, args: string[], out: Output, parse: (args: string[]) => A, body: (parsed: A, sessions: SideSessions) => Promise<number>,
): Promise<number> {
  let parsed: A;
  let security: ReturnType<SecurityArgs['sessionOptions']>;
  try {
    parsed = parse(args);
    security = parsed.security.sessionOptions(process.env);
  } catch (error) {
    out.error(`zooscope ${command}: ${(error as Error).message}`);
    return 2;
  }
  const sessions = sideSessionsFor(parsed.timeoutMs, security, (line) => out.error(`zooscope ${command}: ${line}`));
  try {
    return await body(parsed, sessions);
  } catch (error) {
    out.error(`zooscope ${command}: ${(error as Error).message}${isZkError(error, 'noAuth') ? `; ${CREDENTIALS_HINT}` : ''}`);
    return 2;
  } finally {
    sessions.close();
  }
}

/** Opens the sessions the sides need and reads export files; `close` closes every session. */
export class SideSessions {
  private readonly sessions = new Map<string, ZkSession>();
  /** `warn` is told, before a session opens, that its digest password would cross the network in clear text. */
  constructor(private readonly options: Omit<SessionOptions, 'connectString'>, private readonly warn: (line: string) => void = () => undefined) {}

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
      const notice = digestInClearNotice(session.options);
      if (notice) this.warn(notice);
      await session.open();
    }
    return session;
  }

  close(): void {
    for (const session of this.sessions.values()) session.close();
  }
}
