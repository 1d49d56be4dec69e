// Small promise helpers over node-zookeeper-client for the demo scripts (seed data and lock clients).
// The library has no request timeouts and retries a dead ensemble forever, so every call here has one.
import * as zookeeper from 'node-zookeeper-client';

export type ZkClient = zookeeper.Client;
export const { CreateMode, Exception, Permission } = zookeeper;

/** world:anyone with every permission (the library's ACL.OPEN_ACL_UNSAFE, absent from its typings). */
export const OPEN_ACL: zookeeper.ACL[] = [new zookeeper.ACL(Permission.ALL, new zookeeper.Id('world', 'anyone'))];

export interface ConnectOptions {
  /** Give up if the session is not established within this time. */
  connectTimeoutMs?: number;
  sessionTimeoutMs?: number;
  /** Digest credentials (`user:password`) added before connecting. */
  digestAuth?: string;
}

/** Connects a new client (one ZooKeeper session) and resolves once it is connected. */
export function connect(connectString: string, options: ConnectOptions = {}): Promise<ZkClient> {
  const client = zookeeper.createClient(connectString, {
    sessionTimeout: options.sessionTimeoutMs ?? 15000,
    spinDelay: 200,
    retries: 0,
  });
  if (options.digestAuth) client.addAuthInfo('digest', Buffer.from(options.digestAuth));
  const timeoutMs = options.connectTimeoutMs ?? 15000;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      client.close();
      reject(new Error(`could not connect to ZooKeeper at ${connectString} within ${timeoutMs} ms`));
    }, timeoutMs);
    client.once('connected', () => {
      clearTimeout(timer);
      resolve(client);
    });
    client.connect();
  });
}

/** Closes the session (the server deletes its ephemeral nodes) and waits for the socket to go. */
export function close(client: ZkClient, timeoutMs = 3000): Promise<void> {
  return new Promise((resolve) => {
    const state = client.getState();
    if (state !== zookeeper.State.SYNC_CONNECTED && state !== zookeeper.State.CONNECTED_READ_ONLY) {
      client.close();
      resolve();
      return;
    }
    const timer = setTimeout(resolve, timeoutMs);
    client.once('disconnected', () => {
      clearTimeout(timer);
      resolve();
    });
    client.close();
  });
}

/** True when `error` is a ZooKeeper exception with this code (e.g. `Exception.NODE_EXISTS`). */
export function isZkError(error: unknown, code: number): boolean {
  return error instanceof zookeeper.Exception && error.getCode() === code;
}

/** ZooKeeper's usual text for a session id: `0x` + 16 hex digits. */
export function sessionIdHex(idBytes: Buffer): string {
  return '0x' + idBytes.toString('hex').padStart(16, '0');
}

export const OP_TIMEOUT_MS = 30000;

/** Wraps one callback-style call into a promise that also fails after `timeoutMs`. */
export function call<T>(what: string, start: (done: (error: Error | zookeeper.Exception | null, value?: T) => void) => void,
  timeoutMs = OP_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what}: no answer within ${timeoutMs} ms`)), timeoutMs);
    start((error, value) => {
      clearTimeout(timer);
      if (error) reject(error);
      else resolve(value as T);
    });
  });
}

export function create(client: ZkClient, path: string, data: Buffer | null, mode: number,
  acls: zookeeper.ACL[] = OPEN_ACL): Promise<string> {
  return call<string>(`create ${path}`, (done) => client.create(path, data ?? Buffer.alloc(0), acls, mode, done));
}

/** Creates a persistent node unless it exists; true when this call created it. */
export async function createIfMissing(client: ZkClient, path: string, data: Buffer | null = null,
  acls?: zookeeper.ACL[]): Promise<boolean> {
  try {
    await create(client, path, data, CreateMode.PERSISTENT, acls);
    return true;
  } catch (error) {
    if (isZkError(error, Exception.NODE_EXISTS)) return false;
    throw error;
  }
}

/** Creates every missing ancestor of `path` and `path` itself (persistent, empty). */
export async function ensurePath(client: ZkClient, path: string): Promise<void> {
  const parts = path.split('/').filter(Boolean);
  for (let i = 1; i <= parts.length; i++) await createIfMissing(client, '/' + parts.slice(0, i).join('/'));
}

export function getChildren(client: ZkClient, path: string): Promise<string[]> {
  return call<string[]>(`getChildren ${path}`, (done) => client.getChildren(path, (e, children) => done(e, children)));
}

export function getData(client: ZkClient, path: string): Promise<{ data: Buffer; stat: zookeeper.Stat }> {
  return call(`getData ${path}`, (done) => client.getData(path, (e, data, stat) => done(e, { data: data ?? Buffer.alloc(0), stat })));
}

export function setData(client: ZkClient, path: string, data: Buffer): Promise<zookeeper.Stat> {
  return call(`setData ${path}`, (done) => client.setData(path, data, -1, done));
}

export function exists(client: ZkClient, path: string): Promise<zookeeper.Stat | null> {
  return call(`exists ${path}`, (done) => client.exists(path, (e, stat) => done(e, stat ?? null)));
}

export function remove(client: ZkClient, path: string): Promise<void> {
  return call<void>(`delete ${path}`, (done) => client.remove(path, -1, (e) => done(e)));
}

export function getACL(client: ZkClient, path: string): Promise<zookeeper.ACL[]> {
  return call(`getACL ${path}`, (done) => client.getACL(path, (e, acls) => done(e, acls)));
}

export function setACL(client: ZkClient, path: string, acls: zookeeper.ACL[]): Promise<void> {
  return call<void>(`setACL ${path}`, (done) => client.setACL(path, acls, -1, (e) => done(e)));
}

/**
 * Runs `work` over `items` with at most `limit` calls in flight. node-zookeeper-client keeps its pending
 * requests in arrays drained with Array#shift, so thousands in flight make every reply slower.
 */
export async function forEachBounded<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++];
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
}
