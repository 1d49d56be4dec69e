// ZooKeeper's error codes as one error type that names the operation and the path, so every layer above can
// explain a failure in words (the VS Code layer localizes by `code`).

export const ErrorCode = {
  systemError: -1,
  runtimeInconsistency: -2,
  dataInconsistency: -3,
  connectionLoss: -4,
  marshallingError: -5,
  unimplemented: -6,
  operationTimeout: -7,
  badArguments: -8,
  newConfigNoQuorum: -13,
  reconfigInProgress: -14,
  apiError: -100,
  noNode: -101,
  noAuth: -102,
  badVersion: -103,
  noChildrenForEphemerals: -108,
  nodeExists: -110,
  notEmpty: -111,
  sessionExpired: -112,
  invalidCallback: -113,
  invalidAcl: -114,
  authFailed: -115,
  sessionMoved: -118,
  notReadOnly: -119,
  ephemeralOnLocalSession: -120,
  noWatcher: -121,
  requestTimeout: -122,
  reconfigDisabled: -123,
  sessionClosedRequireSasl: -124,
  quotaExceeded: -125,
  throttled: -127,
} as const;

/** Besides the server's codes: no answer in time, a closed session, a reply longer than the channel accepts. */
/** `subtreeTooLarge`: a subtree read passed its bound of nodes or data (ReadOptions.maxNodes / maxDataBytes). */
export type ErrorName = keyof typeof ErrorCode | 'clientTimeout' | 'closed' | 'replyTooLarge' | 'subtreeTooLarge' | 'unknown';

const namesByCode = new Map<number, ErrorName>(
  Object.entries(ErrorCode).map(([name, code]) => [code, name as ErrorName]),
);

export class ZkError extends Error {
  constructor(
    /** A stable name for the failure: a ZooKeeper code's name, or `clientTimeout` / `closed`. */
    readonly code: ErrorName,
    /** The operation that failed, e.g. `getChildren`. */
    readonly operation: string,
    /** The path it was about, when there is one. */
    readonly path?: string,
    /** ZooKeeper's numeric code, when the server or the client library gave one. */
    readonly zkCode?: number,
  ) {
    super(`${operation}${path ? ` ${path}` : ''}: ${code}${zkCode !== undefined ? ` (${zkCode})` : ''}`);
    this.name = 'ZkError';
  }

  static fromCode(zkCode: number, operation: string, path?: string): ZkError {
    return new ZkError(namesByCode.get(zkCode) ?? 'unknown', operation, path, zkCode);
  }

  /** Normalizes whatever node-zookeeper-client or our own code threw. */
  static from(error: unknown, operation: string, path?: string): ZkError {
    if (error instanceof ZkError) return error;
    const maybe = error as { getCode?: () => number; code?: unknown } | undefined;
    if (maybe && typeof maybe.getCode === 'function') return ZkError.fromCode(maybe.getCode(), operation, path);
    if (maybe && typeof maybe.code === 'number') return ZkError.fromCode(maybe.code, operation, path);
    const wrapped = new ZkError('unknown', operation, path);
    wrapped.message += `: ${error instanceof Error ? error.message : String(error)}`;
    return wrapped;
  }
}

export function isZkError(error: unknown, ...codes: ErrorName[]): error is ZkError {
  return error instanceof ZkError && (codes.length === 0 || codes.includes(error.code));
}

/** The first line of an error's message, with its errno code when the message does not already name it. */
export function firstLine(error: unknown): string {
  const text = (error instanceof Error ? error.message : String(error)).split('\n')[0].trim();
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' && !text.includes(code) ? `${text} (${code})` : text;
}
