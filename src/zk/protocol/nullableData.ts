// create and getData where "no data" (a null buffer, length -1) stays distinct from empty data: zkCli creates
// nodes without data as null and prints "null" for them, and its quota nodes are created that way too.
import type { ZnodeStat } from '../stat';
import { JuteReader, JuteWriter } from './jute';
import { OpCode } from './opcodes';
import type { RawChannel } from './rawChannel';
import { readStat } from './statReader';
import { AclEntry, createOpCode, writeAcl } from './writes';

export interface NullableCreate {
  path: string;
  data: Buffer | null;
  acl: readonly AclEntry[];
  flags: number;
  ttlMs?: bigint;
}

/** create2 / createContainer / createTTL with possibly null data; resolves with the created path (chroot removed). */
export async function createNullable(channel: RawChannel, fields: NullableCreate): Promise<{ path: string; stat: ZnodeStat }> {
  const opCode = createOpCode(fields.flags);
  const writer = new JuteWriter().string(channel.serverPath(fields.path)).buffer(fields.data);
  writeAcl(writer, fields.acl);
  writer.int(fields.flags);
  if (opCode === OpCode.createTTL) writer.long(fields.ttlMs ?? 0n);
  const reader = new JuteReader(await channel.send(opCode, writer.toBuffer(), 'create', fields.path));
  const path = channel.clientPath(reader.string());
  return { path, stat: readStat(reader) };
}

/** getData whose data is null when the node was created without any. */
export async function getDataNullable(channel: RawChannel, path: string, watch: boolean, serverPath = channel.serverPath(path)): Promise<{ data: Buffer | null; stat: ZnodeStat }> {
  const body = new JuteWriter().string(serverPath).bool(watch).toBuffer();
  const reader = new JuteReader(await channel.send(OpCode.getData, body, 'getData', path));
  const data = reader.buffer();
  return { data: data === null ? null : Buffer.from(data), stat: readStat(reader) };
}

/** getConfig: the data of /zookeeper/config, read without the chroot as the Java client does. */
export function getConfig(channel: RawChannel, watch: boolean): Promise<{ data: Buffer | null; stat: ZnodeStat }> {
  return getDataNullable(channel, '/zookeeper/config', watch, '/zookeeper/config');
}
