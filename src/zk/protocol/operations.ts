// Requests and replies of the operations we send ourselves, as plain functions over a RawChannel.
// Record layouts follow zookeeper-jute's zookeeper.jute.
import type { ZnodeStat } from '../stat';
import { JuteReader, JuteWriter } from './jute';
import { OpCode } from './opcodes';
import type { RawChannel } from './rawChannel';
import { readStat } from './statReader';

export interface ChildrenReply {
  children: string[];
  stat: ZnodeStat;
}

export interface DataReply {
  data: Buffer;
  stat: ZnodeStat;
}

export interface ClientIdentity {
  scheme: string;
  user: string;
}

function pathRequest(channel: RawChannel, path: string, watch?: boolean): Buffer {
  const writer = new JuteWriter().string(channel.serverPath(path));
  if (watch !== undefined) writer.bool(watch);
  return writer.toBuffer();
}

/** getChildren2: the names and the node's own Stat in one round trip. */
export async function getChildren2(channel: RawChannel, path: string, watch = false): Promise<ChildrenReply> {
  const reply = await channel.send(OpCode.getChildren2, pathRequest(channel, path, watch), 'getChildren', path);
  const reader = new JuteReader(reply);
  const children = reader.vector((r) => r.string());
  return { children, stat: readStat(reader) };
}

/** exists: the Stat, or undefined when the node does not exist. */
export async function exists(channel: RawChannel, path: string, watch = false): Promise<ZnodeStat | undefined> {
  return existsRequest(channel, pathRequest(channel, path, watch), path);
}

/**
 * exists on a path as the server names it: a session's chroot is the client's own prefix (the server knows none),
 * so two sessions with different chroots can ask about one node. exists needs no permission on the node.
 */
export function existsOnServer(channel: RawChannel, serverPath: string): Promise<ZnodeStat | undefined> {
  return existsRequest(channel, new JuteWriter().string(serverPath).bool(false).toBuffer(), serverPath);
}

/** getChildren2 on a path as the server names it (see existsOnServer). */
export async function childrenOnServer(channel: RawChannel, serverPath: string): Promise<string[]> {
  const reply = await channel.send(OpCode.getChildren2, new JuteWriter().string(serverPath).bool(false).toBuffer(), 'getChildren', serverPath);
  return new JuteReader(reply).vector((r) => r.string());
}

async function existsRequest(channel: RawChannel, request: Buffer, path: string): Promise<ZnodeStat | undefined> {
  try {
    const reply = await channel.send(OpCode.exists, request, 'exists', path);
    return readStat(new JuteReader(reply));
  } catch (error) {
    if ((error as { code?: string }).code === 'noNode') return undefined;
    throw error;
  }
}

export async function getData(channel: RawChannel, path: string, watch = false): Promise<DataReply> {
  const reply = await channel.send(OpCode.getData, pathRequest(channel, path, watch), 'getData', path);
  const reader = new JuteReader(reply);
  const data = reader.buffer() ?? Buffer.alloc(0);
  return { data: Buffer.from(data), stat: readStat(reader) };
}

/** getAllChildrenNumber (3.6+): the number of descendants, counted by the server. */
export async function getAllChildrenNumber(channel: RawChannel, path: string): Promise<number> {
  const reply = await channel.send(OpCode.getAllChildrenNumber, pathRequest(channel, path), 'getAllChildrenNumber', path);
  return new JuteReader(reply).int();
}

/** addWatch (3.6+): a persistent, optionally recursive, watch that stays until removed or the session ends. */
export async function addWatch(channel: RawChannel, path: string, mode: number): Promise<void> {
  const body = new JuteWriter().string(channel.serverPath(path)).int(mode).toBuffer();
  await channel.send(OpCode.addWatch, body, 'addWatch', path);
}

/** removeWatches (3.5+): drops this session's watches of `watcherType` on `path` on the server. */
export async function removeWatches(channel: RawChannel, path: string, watcherType: number): Promise<void> {
  const body = new JuteWriter().string(channel.serverPath(path)).int(watcherType).toBuffer();
  await channel.send(OpCode.removeWatches, body, 'removeWatches', path);
}

/** whoAmI (3.7+): the identities the server associates with this session. */
export async function whoAmI(channel: RawChannel): Promise<ClientIdentity[]> {
  const reply = await channel.send(OpCode.whoAmI, Buffer.alloc(0), 'whoAmI');
  return new JuteReader(reply).vector((r) => ({ scheme: r.string(), user: r.string() }));
}

/** sync: brings the attached server up to date with the leader for `path`. */
export async function sync(channel: RawChannel, path: string): Promise<void> {
  await channel.send(OpCode.sync, pathRequest(channel, path), 'sync', path);
}

/** getEphemerals (3.6+): this session's ephemeral nodes under a prefix. */
export async function getEphemerals(channel: RawChannel, prefixPath: string): Promise<string[]> {
  const reply = await channel.send(OpCode.getEphemerals, pathRequest(channel, prefixPath), 'getEphemerals', prefixPath);
  return new JuteReader(reply).vector((r) => channel.clientPath(r.string()));
}
