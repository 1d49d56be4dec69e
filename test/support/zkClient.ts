// A plain node-zookeeper-client for tests: "another client" that changes data behind ZooScope's back.
import * as zookeeper from 'node-zookeeper-client';

export interface OtherClient {
  client: zookeeper.Client;
  create(path: string, data?: string | Buffer, mode?: number): Promise<string>;
  remove(path: string): Promise<void>;
  setData(path: string, data: string | Buffer): Promise<void>;
  mkdirp(path: string): Promise<void>;
  removeRecursive(path: string): Promise<void>;
  close(): void;
}

export async function connectOtherClient(connectString: string, sessionTimeout = 10000): Promise<OtherClient> {
  const client = zookeeper.createClient(connectString, { sessionTimeout, retries: 0 });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`test client could not connect to ${connectString}`)), 15000);
    client.once('connected', () => { clearTimeout(timer); resolve(); });
    client.connect();
  });
  const promisify = <T>(call: (cb: (error: Error | null, result?: T) => void) => void) =>
    new Promise<T>((resolve, reject) => call((error, result) => (error ? reject(error) : resolve(result as T))));
  const toBuffer = (data?: string | Buffer) => (data === undefined ? undefined : Buffer.isBuffer(data) ? data : Buffer.from(data));
  return {
    client,
    create: (path, data, mode = zookeeper.CreateMode.PERSISTENT) =>
      promisify<string>((cb) => client.create(path, toBuffer(data) ?? null as unknown as Buffer, mode, cb as never)),
    remove: (path) => promisify((cb) => client.remove(path, -1, cb as never)),
    setData: (path, data) => promisify((cb) => client.setData(path, toBuffer(data) as Buffer, -1, cb as never)),
    mkdirp: (path) => promisify((cb) => client.mkdirp(path, cb as never)),
    // Children first, depth first (the library's own removeRecursive fails with NOT_EMPTY three levels down).
    removeRecursive: async function removeTree(path: string): Promise<void> {
      const children = await promisify<string[]>((cb) => client.getChildren(path, cb as never)).catch((error: { name?: string }) => {
        if (error?.name === 'NO_NODE') return undefined;
        throw error;
      });
      if (!children) return;
      for (const child of children) await removeTree(`${path === '/' ? '' : path}/${child}`);
      await promisify((cb) => client.remove(path, -1, cb as never)).catch((error: { name?: string }) => {
        if (error?.name !== 'NO_NODE') throw error;
      });
    },
    close: () => client.close(),
  };
}

/** Resolves when `check` returns true, polling; rejects after `timeoutMs`. */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 5000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}
