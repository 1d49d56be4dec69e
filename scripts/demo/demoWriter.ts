// The demo's writes through the product's own write layer (ZnodeWriter on a ZkSession), for a script: a failure
// is thrown as an Error naming the operation, path and code, and "already exists" is an answer, not a failure.
import type { ZkSession } from '../../src/zk/session/session';
import { AclEntry, CreateMode, CreateNodeRequest, Outcome, WriteFailure, ZnodeWriter } from '../../src/zk/write';

export class DemoWriteError extends Error {
  constructor(readonly failure: WriteFailure) {
    super(`${failure.operation} ${failure.path}: ${failure.code}`);
    this.name = 'DemoWriteError';
  }
}

function must<T extends object>(outcome: Outcome<T>): T {
  if (!outcome.ok) throw new DemoWriteError(outcome.failure);
  return outcome;
}

export class DemoWriter {
  private readonly writer: ZnodeWriter;

  constructor(readonly session: ZkSession) {
    this.writer = new ZnodeWriter(session, { readOnly: false });
  }

  /** Creates the node; its real path (sequential modes append a number). */
  async create(path: string, data?: Buffer, mode: CreateMode = 'persistent', acl?: readonly AclEntry[]): Promise<string> {
    return must(await this.writer.create({ path, data, mode, acl })).path;
  }

  /** Creates the node unless it exists; true when this call created it. */
  async createIfMissing(path: string, data?: Buffer, acl?: readonly AclEntry[], mode: CreateMode = 'persistent'): Promise<boolean> {
    return this.createUnlessExists({ path, data, acl, mode });
  }

  /** Creates `path` and its missing ancestors (persistent, empty, open ACL) unless it exists. */
  async ensurePath(path: string): Promise<void> {
    await this.createUnlessExists({ path, createParents: true });
  }

  async getData(path: string): Promise<Buffer> {
    return must(await this.writer.getData(path)).data;
  }

  async setData(path: string, data: Buffer): Promise<void> {
    must(await this.writer.setData(path, data, -1));
  }

  async getAcl(path: string): Promise<AclEntry[]> {
    return must(await this.writer.getAcl(path)).acl;
  }

  async setAcl(path: string, acl: readonly AclEntry[]): Promise<void> {
    must(await this.writer.setAcl(path, acl, -1));
  }

  async children(path: string): Promise<string[]> {
    return (await this.session.getChildren(path)).children;
  }

  private async createUnlessExists(request: CreateNodeRequest): Promise<boolean> {
    const outcome = await this.writer.create(request);
    if (!outcome.ok && outcome.failure.code === 'nodeExists') return false;
    must(outcome);
    return true;
  }
}
