// The one plain node-zookeeper-client of the tests: "another client" that changes data behind ZooScope's back,
// and reads what ZooScope (or the demo) wrote as an independent observer. Every test that needs a second session
// uses this; it shares no code with src/zk on purpose.
import * as zookeeper from 'node-zookeeper-client';
import { sessionIdHex } from '../../../src/zk/stat';

export { eventually } from '../waiting';

export interface OtherClient {
  client: zookeeper.Client;
  /** This session's id as `0x` + hex (as src/zk/stat.ts writes session ids). */
  readonly sessionId: string;
  create(path: string, data?: string | Buffer, mode?: number): Promise<string>;
  remove(path: string): Promise<void>;
  setData(path: string, data: string | Buffer): Promise<void>;
  mkdirp(path: string): Promise<void>;
  removeRecursive(path: string): Promise<void>;
  getData(path: string): Promise<{ data: Buffer; stat: zookeeper.Stat }>;
  children(path: string): Promise<string[]>;
  /** The node's Stat, or undefined when it does not exist. */
  exists(path: string): Promise<zookeeper.Stat | undefined>;
  /** The ephemeral owner of `path` as `0x` + hex ('0x0' for a persistent node), or undefined when it is gone. */
  ownerOf(path: string): Promise<string | undefined>;
  /**
   * Leaves a one-shot watch on `path`, set by `call` as a lock recipe would (exists/getData: a data watch, on a
   * missing node exists sets one too; getChildren: a child watch), so the servers list it; its event is ignored.
   */
  watch(path: string, call?: WatchingCall): Promise<void>;
  close(): void;
}

export type WatchingCall = 'exists' | 'getData' | 'getChildren';

export interface OtherClientOptions {
  /** Digest credentials (`user:password`), added before connecting. */
  digest?: string;
}

/** True when `error` is node-zookeeper-client's exception with this name (e.g. 'NO_NODE', 'NO_AUTH'). */
export function isClientError(error: unknown, name: string): boolean {
  return (error as { name?: unknown } | undefined)?.name === name;
}

export async function connectOtherClient(connectString: string, sessionTimeout = 10000, options: OtherClientOptions = {}): Promise<OtherClient> {
  const client = zookeeper.createClient(connectString, { sessionTimeout, retries: 0 });
  if (options.digest) client.addAuthInfo('digest', Buffer.from(options.digest));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`test client could not connect to ${connectString}`)), 15000);
    client.once('connected', () => { clearTimeout(timer); resolve(); });
    client.connect();
  });
  const promisify = <T>(call: (cb: (error: Error | null, result?: T) => void) => void) =>
    new Promise<T>((resolve, reject) => call((error, result) => (error ? reject(error) : resolve(result as T))));
  const toBuffer = (data?: string | Buffer) => (data === undefined ? undefined : Buffer.isBuffer(data) ? data : Buffer.from(data));
  const ignoreNoNode = (error: unknown) => {
    if (!isClientError(error, 'NO_NODE')) throw error;
    return undefined;
  };
  const children = (path: string) => promisify<string[]>((cb) => client.getChildren(path, cb as never));
  const exists = (path: string) => promisify<zookeeper.Stat | null>((cb) => client.exists(path, cb as never)).then((stat) => stat ?? undefined);
  return {
    client,
    get sessionId() { return sessionIdHex(client.getSessionId()); },
    create: (path, data, mode = zookeeper.CreateMode.PERSISTENT) =>
      promisify<string>((cb) => client.create(path, toBuffer(data) ?? null as unknown as Buffer, mode, cb as never)),
    remove: (path) => promisify((cb) => client.remove(path, -1, cb as never)),
    setData: (path, data) => promisify((cb) => client.setData(path, toBuffer(data) as Buffer, -1, cb as never)),
    mkdirp: (path) => promisify((cb) => client.mkdirp(path, cb as never)),
    // Children first, depth first (the library's own removeRecursive fails with NOT_EMPTY three levels down).
    removeRecursive: async function removeTree(path: string): Promise<void> {
      const names = await children(path).catch(ignoreNoNode);
      if (!names) return;
      for (const child of names) await removeTree(`${path === '/' ? '' : path}/${child}`);
      await promisify((cb) => client.remove(path, -1, cb as never)).catch(ignoreNoNode);
    },
    getData: (path) => new Promise((resolve, reject) => client.getData(path, (error, data, stat) =>
      (error ? reject(error) : resolve({ data: data ?? Buffer.alloc(0), stat })))),
    children,
    exists,
    ownerOf: async (path) => {
      const stat = await exists(path);
      return stat && sessionIdHex(stat.ephemeralOwner);
    },
    watch: (path, call = 'exists') => new Promise<void>((resolve, reject) => {
      const done = (error: Error | zookeeper.Exception | null) => (error ? reject(error) : resolve());
      if (call === 'exists') client.exists(path, () => undefined, done);
      else if (call === 'getData') client.getData(path, () => undefined, done);
      else client.getChildren(path, () => undefined, done);
    }),
    close: () => client.close(),
  };
}
