// Creating a node in any of ZooKeeper's modes, optionally with its missing parents (`mkdir -p`), through create2 /
// createContainer / createTTL so the answer carries the real path (sequential names) and the Stat.
import { ErrorCode, isZkError, ZkError } from '../errors';
import { ancestors } from '../paths';
import * as writes from '../protocol/writes';
import type { ZkSession } from '../session/session';
import type { ZnodeStat } from '../stat';
import { checkRequestSize, checkTarget, checkTtl, checkWritable, GuardOptions } from './guard';
import { Outcome, refused, serverFailure } from './outcome';

export type CreateMode =
  | 'persistent' | 'persistentSequential'
  | 'ephemeral' | 'ephemeralSequential'
  | 'container'
  | 'ttl' | 'ttlSequential';

const FLAGS: Record<CreateMode, number> = {
  persistent: writes.CreateFlags.persistent,
  persistentSequential: writes.CreateFlags.persistentSequential,
  ephemeral: writes.CreateFlags.ephemeral,
  ephemeralSequential: writes.CreateFlags.ephemeralSequential,
  container: writes.CreateFlags.container,
  ttl: writes.CreateFlags.persistentWithTtl,
  ttlSequential: writes.CreateFlags.persistentSequentialWithTtl,
};

export interface CreateNodeRequest {
  /** The node to create; for sequential modes the server appends a 10-digit number to it. */
  path: string;
  data?: Buffer;
  mode?: CreateMode;
  /** Required for `ttl` / `ttlSequential`: 1 ms … MAX_TTL_MS. */
  ttlMs?: number;
  /** Defaults to world:anyone:cdrwa. */
  acl?: readonly writes.AclEntry[];
  /** Create missing ancestors first, as empty persistent nodes. */
  createParents?: boolean;
}

export interface Created {
  /** The real path (with the sequence number for sequential modes). */
  path: string;
  /**
   * The Stat the server returned. ZooKeeper 3.8 reports ephemeralOwner 0 for container and TTL nodes (it hides
   * their internal marker), so the kind cannot be read back from a Stat; `mode` says what was created.
   */
  stat: ZnodeStat;
  mode: CreateMode;
  /** Ancestors this call created (top first); empty when they all existed. */
  createdParents: string[];
}

export const isTtlMode = (mode: CreateMode): boolean => mode === 'ttl' || mode === 'ttlSequential';

export async function createNode(session: ZkSession, request: CreateNodeRequest, guard: GuardOptions): Promise<Outcome<Created>> {
  const mode = request.mode ?? 'persistent';
  const path = request.path;
  const refusal = checkWritable(guard) ?? checkTarget(path) ??
    (isTtlMode(mode) ? checkTtl(request.ttlMs ?? 0) : undefined);
  if (refusal) return refused('create', path, refusal);
  const fields: writes.CreateRequestFields = {
    path, data: request.data ?? Buffer.alloc(0), acl: request.acl ?? writes.OPEN_ACL, flags: FLAGS[mode], ttlMs: request.ttlMs,
  };
  const tooLarge = checkRequestSize(writes.createBody(session.channel, fields).length, fields.data.length, guard);
  if (tooLarge) return refused('create', path, tooLarge);

  const channel = session.channel;
  // Parents and the node go out back to back: the server applies one session's requests in order.
  const parents = request.createParents ? ancestors(path).filter((p) => p !== '/') : [];
  const parentReplies = parents.map((parent) => session.request(
    writes.create(channel, { path: parent, data: Buffer.alloc(0), acl: fields.acl, flags: writes.CreateFlags.persistent }),
    'create', parent,
  ).then(() => true, (error: unknown) => {
    if (isZkError(error, 'nodeExists')) return false;
    throw error;
  }));
  const node = session.request(writes.create(channel, fields), 'create', path);
  const createdParents: string[] = [];
  try {
    for (let i = 0; i < parents.length; i++) if (await parentReplies[i]) createdParents.push(parents[i]);
  } catch (error) {
    node.catch(() => undefined);
    const failedParent = (error as ZkError).path ?? path;
    return { ok: false, failure: serverFailure(error, 'create', failedParent) };
  }
  try {
    const reply = await node;
    return { ok: true, path: reply.path, stat: reply.stat, mode, createdParents };
  } catch (error) {
    const failure = serverFailure(error, 'create', path);
    // 3.8.0 answers createTTL with unimplemented when zookeeper.extendedTypesEnabled is not true.
    if (isTtlMode(mode) && failure.zkCode === ErrorCode.unimplemented) failure.code = 'extendedTypesDisabled';
    return { ok: false, failure };
  }
}
