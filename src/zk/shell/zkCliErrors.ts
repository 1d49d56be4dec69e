// The lines zkCli prints for a failed command (its CliException classes) and their exit codes: 1 for most,
// 127 for an unknown command. Server errors become CliWrapperException's wording ("Node does not exist: /a").
import { ErrorCode, ZkError } from '../errors';

export class CliError extends Error {
  constructor(message: string, readonly exitCode = 1) {
    super(message);
  }
}

/** KeeperException.getCodeMessage. */
const CODE_MESSAGES: Record<number, string> = {
  [ErrorCode.systemError]: 'SystemError', [ErrorCode.runtimeInconsistency]: 'RuntimeInconsistency',
  [ErrorCode.dataInconsistency]: 'DataInconsistency', [ErrorCode.connectionLoss]: 'ConnectionLoss',
  [ErrorCode.marshallingError]: 'MarshallingError', [ErrorCode.newConfigNoQuorum]: 'NewConfigNoQuorum',
  [ErrorCode.reconfigInProgress]: 'ReconfigInProgress', [ErrorCode.unimplemented]: 'Unimplemented',
  [ErrorCode.operationTimeout]: 'OperationTimeout', [ErrorCode.badArguments]: 'BadArguments',
  [ErrorCode.apiError]: 'APIError', [ErrorCode.noNode]: 'NoNode', [ErrorCode.noAuth]: 'NoAuth',
  [ErrorCode.badVersion]: 'BadVersion', [ErrorCode.noChildrenForEphemerals]: 'NoChildrenForEphemerals',
  [ErrorCode.nodeExists]: 'NodeExists', [ErrorCode.invalidAcl]: 'InvalidACL', [ErrorCode.authFailed]: 'AuthFailed',
  [ErrorCode.notEmpty]: 'Directory not empty', [ErrorCode.sessionExpired]: 'Session expired',
  [ErrorCode.invalidCallback]: 'Invalid callback', [ErrorCode.sessionMoved]: 'Session moved',
  [ErrorCode.notReadOnly]: 'Not a read-only call', [ErrorCode.ephemeralOnLocalSession]: 'Ephemeral node on local session',
  [ErrorCode.noWatcher]: 'No such watcher', [ErrorCode.reconfigDisabled]: 'Reconfig is disabled',
  [ErrorCode.sessionClosedRequireSasl]: 'Session closed because client failed to authenticate',
  [ErrorCode.quotaExceeded]: 'Quota has exceeded', [ErrorCode.throttled]: 'Op throttled due to high load',
};

/** The Java client's code for failures that never reached the server (a timeout is a lost connection there). */
function codeOf(error: ZkError): number {
  if (error.zkCode !== undefined) return error.zkCode;
  if (error.code === 'sessionExpired') return ErrorCode.sessionExpired;
  return ErrorCode.connectionLoss;
}

/** KeeperException.getMessage(): `KeeperErrorCode = NoNode for /a`. */
export function keeperMessage(code: number, path: string | undefined): string {
  const text = CODE_MESSAGES[code] ?? `Unknown error ${code}`;
  return path ? `KeeperErrorCode = ${text} for ${path}` : `KeeperErrorCode = ${text}`;
}

/** CliWrapperException's message for a server error on `path`. */
export function wrapperMessage(code: number, path: string | undefined): string {
  const p = path ?? 'null';
  switch (code) {
    case ErrorCode.noNode: return `Node does not exist: ${p}`;
    case ErrorCode.noChildrenForEphemerals: return `Ephemerals cannot have children: ${p}`;
    case ErrorCode.nodeExists: return `Node already exists: ${p}`;
    case ErrorCode.notEmpty: return `Node not empty: ${p}`;
    case ErrorCode.notReadOnly: return `Not a read-only call: ${p}`;
    case ErrorCode.invalidAcl: return `Acl is not valid : ${p}`;
    case ErrorCode.noAuth: return `Insufficient permission : ${p}`;
    case ErrorCode.badArguments: return `Arguments are not valid : ${p}`;
    case ErrorCode.badVersion: return `version No is not valid : ${p}`;
    case ErrorCode.reconfigInProgress: return 'Another reconfiguration is in progress -- concurrent reconfigs not supported (yet)';
    case ErrorCode.newConfigNoQuorum:
      return 'No quorum of new config is connected and up-to-date with the leader of last commmitted config - try invoking reconfiguration after new servers are connected and synced';
    case ErrorCode.quotaExceeded: return `Quota has exceeded : ${p}`;
    default: return keeperMessage(code, path);
  }
}

/** A ZkError (or anything thrown by a request) as the CliError zkCli would print for it. */
export function wrapError(error: unknown, path?: string): CliError {
  if (error instanceof CliError) return error;
  const zk = ZkError.from(error, 'shell', path);
  return new CliError(wrapperMessage(codeOf(zk), zk.path ?? path));
}

export function zkCodeOf(error: unknown): number | undefined {
  return error instanceof ZkError ? codeOf(error) : undefined;
}

/** PathUtils.validatePath, with the Java client's messages (zkCli prints them as they are). */
export function validatePath(path: string, sequential = false): void {
  const problem = pathProblem(sequential ? `${path}1` : path);
  if (problem) throw new CliError(problem);
}

function pathProblem(path: string): string | undefined {
  if (path.length === 0) return 'Path length must be > 0';
  if (path[0] !== '/') return 'Path must start with / character';
  if (path.length === 1) return undefined;
  if (path.endsWith('/')) return 'Path must not end with / character';
  let reason: string | undefined;
  for (let i = 1; i < path.length && !reason; i++) {
    const c = path.charCodeAt(i);
    const last = path[i - 1];
    const next = path[i + 1];
    if (c === 0) reason = `null character not allowed @${i}`;
    else if (path[i] === '/' && last === '/') reason = `empty node name specified @${i}`;
    else if (path[i] === '.' && last === '.') {
      if (path[i - 2] === '/' && (next === undefined || next === '/')) reason = `relative paths not allowed @${i}`;
    } else if (path[i] === '.') {
      if (last === '/' && (next === undefined || next === '/')) reason = `relative paths not allowed @${i}`;
    } else if ((c > 0 && c <= 0x1f) || (c >= 0x7f && c <= 0x9f) || (c >= 0xd800 && c <= 0xf8ff) || c >= 0xfff0) {
      reason = `invalid character @${i}`;
    }
  }
  return reason ? `Invalid path string "${path}" caused by ${reason}` : undefined;
}
