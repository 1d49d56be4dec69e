// Structured outcomes of write operations: either success with facts (path, Stat, counts) or a failure that says
// which operation on which path failed and why, as a code the VS Code layer turns into a sentence. Failures
// include the server's error codes (src/zk/errors.ts) and refusals decided before anything is sent.
import { ErrorName, isZkError, ZkError } from '../errors';
import type { PathProblem } from '../paths';
import { parentPath } from '../paths';

/** One ACL permission letter, as zkCli prints them (`cdrwa`). */
export type Permission = 'c' | 'd' | 'r' | 'w' | 'a';

/** Why a write was refused before it was sent. */
export type Refusal =
  /** The connection is marked read-only in its settings. */
  | { code: 'readOnly' }
  | { code: 'invalidPath'; problem: PathProblem }
  /** `/`, `/zookeeper` and everything under `/zookeeper` are never written or deleted. */
  | { code: 'protectedPath' }
  /** The request would be longer than the server reads (jute.maxbuffer): `limit` is the most data that fits. */
  | { code: 'dataTooLarge'; bytes: number; limit: number }
  /** A TTL must be 1 ms … `max` ms (the server stores it in 40 bits). */
  | { code: 'invalidTtl'; ttlMs: number; max: number }
  /** Digest credentials must be `user` (non-empty, no `:`) and a password. */
  | { code: 'invalidCredentials' }
  /** A recursive delete plan that did not see the whole subtree (cancelled or failed) cannot be executed. */
  | { code: 'incompletePlan' }
  /** Left alone in a recursive delete because `child`, below it, could not be deleted. */
  | { code: 'childNotDeleted'; child: string };

/** A failure the server (or the connection) reported. */
export interface ServerFailure {
  code: ErrorName
    /** createTTL on a server without `zookeeper.extendedTypesEnabled=true` (3.8.0 answers `unimplemented`). */
    | 'extendedTypesDisabled';
  zkCode?: number;
  /** For noAuth: the permission that was missing (any one of these suffices) and the node whose ACL decides. */
  needs?: { anyOf: Permission[]; on: string };
  /**
   * For notEmpty in a recursive delete: children that were not in the confirmed plan (created after the preview;
   * left alone), up to 100.
   */
  newChildren?: string[];
}

export type WriteFailure = (Refusal | ServerFailure) & {
  /** The ZooKeeper operation, e.g. `setData`, `create`, `delete`, `setACL`. */
  operation: string;
  path: string;
};

/** A failure the server reported, with the operation and path. */
export type ServerWriteFailure = ServerFailure & { operation: string; path: string };

export type Outcome<T extends object = object> = ({ ok: true } & T) | { ok: false; failure: WriteFailure };

/** Failure codes that are decided on the client before sending. */
export type RefusalCode = Refusal['code'];

export function refused(operation: string, path: string, refusal: Refusal): { ok: false; failure: WriteFailure } {
  return { ok: false, failure: { ...refusal, operation, path } };
}

/**
 * The permission an operation needs when the server says noAuth, and the node whose ACL is checked: creating and
 * deleting are decided by the parent's ACL.
 */
export function permissionNeeded(operation: string, path: string): { anyOf: Permission[]; on: string } | undefined {
  switch (operation) {
    case 'create': return { anyOf: ['c'], on: parentPath(path) ?? '/' };
    case 'delete': return { anyOf: ['d'], on: parentPath(path) ?? '/' };
    case 'setData': return { anyOf: ['w'], on: path };
    case 'getData':
    case 'getChildren': return { anyOf: ['r'], on: path };
    // Since 3.6 reading an ACL needs READ or ADMIN.
    case 'getACL': return { anyOf: ['r', 'a'], on: path };
    case 'setACL': return { anyOf: ['a'], on: path };
    default: return undefined;
  }
}

/** A ZkError (or anything thrown) as a failure of `operation` on `path`. */
export function serverFailure(error: unknown, operation: string, path: string): ServerWriteFailure {
  const zkError = isZkError(error) ? error : ZkError.from(error, operation, path);
  const failure: ServerWriteFailure = { code: zkError.code, operation, path, zkCode: zkError.zkCode };
  if (zkError.code === 'noAuth') failure.needs = permissionNeeded(operation, path);
  return failure;
}

/** Runs `work`; a thrown ZkError becomes `{ ok: false, failure }`. */
export async function attempt<T extends object>(operation: string, path: string, work: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, ...(await work()) };
  } catch (error) {
    return { ok: false, failure: serverFailure(error, operation, path) };
  }
}

/** Whether nothing can be known about the write's effect (it may or may not have been applied). */
export function isIndeterminate(failure: Pick<WriteFailure, 'code'>): boolean {
  return failure.code === 'connectionLoss' || failure.code === 'clientTimeout' || failure.code === 'operationTimeout';
}

/** Whether a failure code means the session cannot go on (a retry needs a new connection). */
export function isSessionGone(failure: Pick<WriteFailure, 'code'>): boolean {
  return failure.code === 'sessionExpired' || failure.code === 'closed' || failure.code === 'authFailed';
}
