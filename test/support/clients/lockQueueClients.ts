// A real lock queue for the lock-queue panel's tests: each contender is a separate ZooKeeper session (like a
// separate process) that creates an EPHEMERAL_SEQUENTIAL node, and every waiter sets an exists watch on its
// predecessor, as the herd-free recipe does. Closing a contender's session releases its node.
import * as zookeeper from 'node-zookeeper-client';
import { connectOtherClient, OtherClient } from './zkClient';

export interface Contender {
  client: OtherClient;
  /** Full path of its node. */
  path: string;
  /** `0x…` session id. */
  session: string;
  data: string;
}

export interface LockQueueClients {
  dir: string;
  contenders: Contender[];
  /** Adds one more waiter (watching the current last node). */
  join(data: string, name?: string): Promise<Contender>;
  /** Closes a contender's session (its node disappears). */
  leave(contender: Contender): void;
  close(): void;
}

/** Creates `dir` (persistent) and `count` contenders named `<prefix><seq>` with data `<dataPrefix><i>`. */
export async function startLockQueue(connectString: string, dir: string, count: number,
  options: { prefix?: string; dataPrefix?: string } = {}): Promise<LockQueueClients> {
  const prefix = options.prefix ?? 'lock-';
  const setup = await connectOtherClient(connectString);
  await setup.mkdirp(dir);
  setup.close();
  const contenders: Contender[] = [];
  const join = async (data: string, name = prefix): Promise<Contender> => {
    const client = await connectOtherClient(connectString, 15000);
    const path = await client.create(`${dir}/${name}`, data, zookeeper.CreateMode.EPHEMERAL_SEQUENTIAL);
    const previous = contenders[contenders.length - 1];
    if (previous) await client.watch(previous.path, 'exists');
    const contender = { client, path, session: client.sessionId, data };
    contenders.push(contender);
    return contender;
  };
  for (let i = 0; i < count; i++) await join(`${options.dataPrefix ?? 'worker-'}${i}`);
  return {
    dir,
    contenders,
    join,
    leave: (contender) => {
      contender.client.close();
      contenders.splice(contenders.indexOf(contender), 1);
    },
    close: () => { for (const c of contenders.splice(0)) c.client.close(); },
  };
}
