// The write API of a saved connection's live session (connecting first when needed), with its read-only flag.
import { ZnodeWriter } from '../../zk/write';
import type { ConnectionManager, LiveConnection } from './connectionManager';

export interface LiveWriter {
  live: LiveConnection;
  writer: ZnodeWriter;
}

export function writerOf(live: LiveConnection): ZnodeWriter {
  return new ZnodeWriter(live.session, { readOnly: live.saved.readOnly === true });
}

/** The connection's writer; undefined when it cannot connect (the connection manager has told the user why). */
export async function liveWriter(connections: ConnectionManager, connectionId: string): Promise<LiveWriter | undefined> {
  const live = connections.get(connectionId) ?? await connections.connect(connectionId);
  return live ? { live, writer: writerOf(live) } : undefined;
}
