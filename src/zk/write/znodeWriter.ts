// The write API of one connection: every method validates before sending, refuses writes on a read-only
// connection, and answers with an Outcome (facts on success, a structured failure otherwise); it never throws for
// a ZooKeeper error.
import { checkNodeName, joinPath } from '../paths';
import * as writes from '../protocol/writes';
import type { ZkSession } from '../session/session';
import type { ZnodeStat } from '../stat';
import { createNode, Created, CreateNodeRequest } from './createNode';
import { deleteMany, DeleteManyReport, DeleteTarget } from './deleteMany';
import { checkRequestSize, checkTarget, checkWritable, DEFAULT_MAX_REQUEST_BYTES, GuardOptions, REQUEST_HEADER_BYTES } from './guard';
import { attempt, Outcome, refused, Refusal } from './outcome';

export interface WriterOptions extends GuardOptions {
  /** Most requests in flight for many-node operations (node-zookeeper-client slows down past ~16k). */
  window?: number;
}

export class ZnodeWriter {
  constructor(readonly session: ZkSession, readonly options: WriterOptions) {}

  get readOnly(): boolean {
    return this.options.readOnly;
  }

  /** `parent` + `name` after checking the name is one valid node name (no `/`, no `.`/`..`, no forbidden characters). */
  static childPath(parent: string, name: string): { ok: true; path: string } | { ok: false; refusal: Refusal } {
    const problem = checkNodeName(name);
    return problem ? { ok: false, refusal: { code: 'invalidPath', problem } } : { ok: true, path: joinPath(parent, name) };
  }

  /**
   * The most data a setData (or a create with `acl`) can carry for `path` on this server: the whole request must
   * fit in jute.maxbuffer, so the limit depends on the path's length (and for create on the ACL).
   */
  maxDataBytes(path: string, operation: 'setData' | 'create' = 'setData', acl: readonly writes.AclEntry[] = writes.OPEN_ACL): number {
    const channel = this.session.channel;
    const empty = Buffer.alloc(0);
    const record = operation === 'setData'
      ? writes.setDataBody(channel, path, empty, 0)
      : writes.createBody(channel, { path, data: empty, acl, flags: writes.CreateFlags.persistent });
    return (this.options.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES) - record.length - REQUEST_HEADER_BYTES;
  }

  getData(path: string): Promise<Outcome<{ data: Buffer; stat: ZnodeStat }>> {
    const problem = checkTarget(path, { allowRoot: true, allowProtected: true });
    if (problem) return Promise.resolve(refused('getData', path, problem));
    return attempt('getData', path, () => this.session.getData(path));
  }

  create(request: CreateNodeRequest): Promise<Outcome<Created>> {
    return createNode(this.session, request, this.options);
  }

  /** setData when the node is still at `expectedVersion` (-1: whatever its version); badVersion is an outcome. */
  setData(path: string, data: Buffer, expectedVersion: number): Promise<Outcome<{ stat: ZnodeStat }>> {
    const refusal = checkWritable(this.options) ?? checkTarget(path) ??
      checkRequestSize(writes.setDataBody(this.session.channel, path, data, expectedVersion).length, data.length, this.options);
    if (refusal) return Promise.resolve(refused('setData', path, refusal));
    return attempt('setData', path, async () => ({
      stat: await this.session.request(writes.setData(this.session.channel, path, data, expectedVersion), 'setData', path),
    }));
  }

  /** Deletes one node (no children) when it is still at `expectedVersion` (-1: any). */
  delete(path: string, expectedVersion: number): Promise<Outcome> {
    const refusal = checkWritable(this.options) ?? checkTarget(path);
    if (refusal) return Promise.resolve(refused('delete', path, refusal));
    return attempt('delete', path, async () => {
      await this.session.request(writes.deleteNode(this.session.channel, path, expectedVersion), 'delete', path);
      return {};
    });
  }

  /** Deletes several selected nodes (children before parents); one result per node; already gone counts as done. */
  deleteMany(targets: readonly DeleteTarget[]): Promise<DeleteManyReport> {
    return deleteMany(this.session, targets, this.options, this.options.window ?? 256);
  }

  getAcl(path: string): Promise<Outcome<writes.AclReply>> {
    const problem = checkTarget(path, { allowRoot: true, allowProtected: true });
    if (problem) return Promise.resolve(refused('getACL', path, problem));
    return attempt('getACL', path, () => this.session.request(writes.getAcl(this.session.channel, path), 'getACL', path));
  }

  /** Replaces the ACL when it is still at `expectedAversion` (Stat.aversion; -1: any). */
  setAcl(path: string, acl: readonly writes.AclEntry[], expectedAversion: number): Promise<Outcome<{ stat: ZnodeStat }>> {
    const refusal = checkWritable(this.options) ?? checkTarget(path, { allowRoot: true });
    if (refusal) return Promise.resolve(refused('setACL', path, refusal));
    return attempt('setACL', path, async () => ({
      stat: await this.session.request(writes.setAcl(this.session.channel, path, acl, expectedAversion), 'setACL', path),
    }));
  }

  /**
   * Adds digest credentials to the live session (also re-sent after a reconnect) and returns the identities the
   * server then associates with the session. Not a write: allowed on read-only connections. Digest accepts any
   * user:password (a wrong password only yields an identity no ACL names), so the server never refuses it.
   */
  async addDigestAuth(user: string, password: string): Promise<Outcome<{ identities: { scheme: string; user: string }[] }>> {
    if (user === '' || user.includes(':')) return refused('addAuth', '/', { code: 'invalidCredentials' });
    this.session.client.addAuthInfo('digest', Buffer.from(`${user}:${password}`, 'utf8'));
    // whoAmI is queued after the auth packet, so its answer includes the new identity.
    return attempt('addAuth', '/', async () => ({ identities: await this.session.whoAmI() }));
  }
}
