// What `zooscope log`'s flags become, checked: bounds, the moment of --tree-at, the audit files, the SSH form.
import { auditFiles } from '../../../zk/serverLogs/auditLog';
import type { RemoteLogOptions } from '../../../zk/serverLogs/remoteLogs';
import { dataDirProblem, logMembers, placeProblemText, readCommandProblem, readCommandWords } from '../../../zk/serverLogs/remotePlace';
import { parseLogBound, type LogBound } from '../../../zk/serverLogs/txnFilter';
import { UsageError } from '../../args';
import { sshSettings } from '../../connectionOptions';
import type { MomentArgs } from './treeAt';

/** A --from/--to/--tree-at value: a zxid (0x…) or an ISO time. */
export function boundOf(text: string | undefined, flag: string): LogBound | undefined {
  if (text === undefined) return undefined;
  const bound = parseLogBound(text);
  if (!bound) throw new UsageError(`${flag} ${JSON.stringify(text)}: expected a zxid (0x…) or an ISO time (2026-11-28T03:12:00Z)`);
  return bound;
}

/** `--tree-at` with its subtree and file, checked; undefined without it. */
export function momentArgs(values: { 'tree-at'?: string; export?: string; path?: string[]; history?: string; locks?: string; session?: string; from?: string; to?: string }): Omit<MomentArgs, 'json'> | undefined {
  const at = values['tree-at'];
  if (at === undefined) return undefined;
  if (values.history !== undefined || values.locks !== undefined || values.session !== undefined || values.from !== undefined || values.to !== undefined) {
    throw new UsageError('--tree-at takes neither --history, --locks, --session, --from nor --to: it is one moment');
  }
  if ((values.path?.length ?? 0) > 1) throw new UsageError('--tree-at keeps one subtree: give --path once');
  const root = values.path?.[0] ?? '/';
  if (!root.startsWith('/') || /\*/.test(root) || (root.length > 1 && root.endsWith('/'))) throw new UsageError(`--path ${JSON.stringify(root)}: with --tree-at, expected a node's absolute path (no glob)`);
  return { moment: boundOf(at, '--tree-at')!, root, exportFile: values.export };
}

/** An --audit argument's files: the file, or a folder's zookeeper_audit.log and its rolled copies. */
export function auditArg(target: string): string[] {
  let files: string[];
  try {
    files = auditFiles(target);
  } catch (error) {
    throw new UsageError(`--audit ${target}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or folder' : (error as Error).message}`);
  }
  if (files.length === 0) throw new UsageError(`--audit ${target}: no zookeeper_audit.log in this folder (give the audit file itself)`);
  return files;
}

/** The SSH form: the members of a connect string and how to read their data directory; undefined without --data-dir. */
export function remoteArgs(values: { 'data-dir'?: string; 'read-command'?: string } & Parameters<typeof sshSettings>[0], positionals: string[], env: NodeJS.ProcessEnv): { members: string[]; options: Omit<RemoteLogOptions, 'into'> } | undefined {
  const ssh = sshSettings(values, env);
  const dataDir = values['data-dir'];
  if (dataDir === undefined) {
    if (ssh || values['read-command'] !== undefined) throw new UsageError('--ssh and --read-command read the members\' logs: give --data-dir too');
    return undefined;
  }
  const dirProblem = dataDirProblem(dataDir);
  if (dirProblem) throw new UsageError(placeProblemText(dirProblem, '--data-dir', dataDir));
  const read = values['read-command'];
  const readProblem = read === undefined ? undefined : readCommandProblem(read);
  if (readProblem) throw new UsageError(placeProblemText(readProblem, '--read-command', read!));
  if (positionals.length !== 1) throw new UsageError('with --data-dir, give one connect string (its members are read)');
  const members = logMembers(positionals[0]);
  if ('problem' in members) throw new UsageError(members.problem);
  return { members, options: { ssh, dataDir, readCommand: read === undefined ? undefined : readCommandWords(read) } };
}
