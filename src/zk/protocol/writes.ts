// Write requests sent through the RawChannel (create2/createContainer/createTTL, setData, delete, getACL, setACL),
// so every write returns the server's Stat and container/TTL nodes work although node-zookeeper-client lacks them.
// Record layouts follow zookeeper-jute's zookeeper.jute (CreateRequest, CreateTTLRequest, Create2Response, ...).
import type { ZnodeStat } from '../stat';
import { JuteReader, JuteWriter } from './jute';
import { OpCode } from './opcodes';
import type { RawChannel } from './rawChannel';
import { readStat } from './statReader';

/** One ACL entry as the server stores it: perms is the READ|WRITE|CREATE|DELETE|ADMIN bit mask. */
export interface AclEntry {
  scheme: string;
  id: string;
  perms: number;
}

/** ZooDefs.Ids.OPEN_ACL_UNSAFE: world:anyone with every permission. */
export const OPEN_ACL: readonly AclEntry[] = [{ scheme: 'world', id: 'anyone', perms: 31 }];

/** CreateMode flags as the server reads them from CreateRequest.flags. */
export const CreateFlags = {
  persistent: 0,
  ephemeral: 1,
  persistentSequential: 2,
  ephemeralSequential: 3,
  container: 4,
  persistentWithTtl: 5,
  persistentSequentialWithTtl: 6,
} as const;

export interface CreateRequestFields {
  path: string;
  data: Buffer;
  acl: readonly AclEntry[];
  flags: number;
  /** Only for the TTL flags. */
  ttlMs?: number;
}

export interface CreateReply {
  /** The created path without the chroot (sequential names carry their number). */
  path: string;
  stat: ZnodeStat;
}

export function writeAcl(writer: JuteWriter, acl: readonly AclEntry[]): void {
  writer.vector(acl, (w, entry) => { w.int(entry.perms).string(entry.scheme).string(entry.id); });
}

export function readAcl(reader: JuteReader): AclEntry[] {
  return reader.vector((r) => {
    const perms = r.int();
    return { perms, scheme: r.string(), id: r.string() };
  });
}

/** The opcode that creates a node of these flags and returns its Stat. */
export function createOpCode(flags: number): number {
  if (flags === CreateFlags.container) return OpCode.createContainer;
  if (flags === CreateFlags.persistentWithTtl || flags === CreateFlags.persistentSequentialWithTtl) return OpCode.createTTL;
  return OpCode.create2;
}

/** A create whose data may be null: a node without data, not the same as zero-length data (copies keep it). */
export type NullableCreateFields = Omit<CreateRequestFields, 'data'> & { data: Buffer | null };

/** The CreateRequest / CreateTTLRequest record (without request header). */
export function createBody(channel: RawChannel, fields: NullableCreateFields): Buffer {
  const writer = new JuteWriter().string(channel.serverPath(fields.path)).buffer(fields.data);
  writeAcl(writer, fields.acl);
  writer.int(fields.flags);
  if (createOpCode(fields.flags) === OpCode.createTTL) writer.long(BigInt(fields.ttlMs ?? 0));
  return writer.toBuffer();
}

/** create2 / createContainer / createTTL: all three answer with a Create2Response (path and Stat). */
export async function create(channel: RawChannel, fields: CreateRequestFields): Promise<CreateReply> {
  const reply = await channel.send(createOpCode(fields.flags), createBody(channel, fields), 'create', fields.path);
  const reader = new JuteReader(reply);
  const path = channel.clientPath(reader.string());
  return { path, stat: readStat(reader) };
}

export function setDataBody(channel: RawChannel, path: string, data: Buffer | null, version: number): Buffer {
  return new JuteWriter().string(channel.serverPath(path)).buffer(data).int(version).toBuffer();
}

/** setData with an expected version (-1: any). */
export async function setData(channel: RawChannel, path: string, data: Buffer, version: number): Promise<ZnodeStat> {
  const reply = await channel.send(OpCode.setData, setDataBody(channel, path, data, version), 'setData', path);
  return readStat(new JuteReader(reply));
}

export function deleteBody(channel: RawChannel, path: string, version: number): Buffer {
  return new JuteWriter().string(channel.serverPath(path)).int(version).toBuffer();
}

export async function deleteNode(channel: RawChannel, path: string, version: number): Promise<void> {
  await channel.send(OpCode.delete, deleteBody(channel, path, version), 'delete', path);
}

export interface AclReply {
  acl: AclEntry[];
  stat: ZnodeStat;
}

export async function getAcl(channel: RawChannel, path: string): Promise<AclReply> {
  const body = new JuteWriter().string(channel.serverPath(path)).toBuffer();
  const reader = new JuteReader(await channel.send(OpCode.getACL, body, 'getACL', path));
  const acl = readAcl(reader);
  return { acl, stat: readStat(reader) };
}

/** setACL with an expected ACL version (Stat.aversion; -1: any). */
export async function setAcl(channel: RawChannel, path: string, acl: readonly AclEntry[], aversion: number): Promise<ZnodeStat> {
  const writer = new JuteWriter().string(channel.serverPath(path));
  writeAcl(writer, acl);
  const reply = await channel.send(OpCode.setACL, writer.int(aversion).toBuffer(), 'setACL', path);
  return readStat(new JuteReader(reply));
}
