// A loopback TCP proxy for fault tests. It can cut every connection, refuse new ones, and rewrite or swallow
// client→server requests: it splits the client's stream into ZooKeeper frames (4-byte big-endian length + body;
// the first frame of a connection is the ConnectRequest, later ones start with xid and opcode). Server→client
// bytes pass through untouched unless a test asks to see them as reply frames (to lose one particular answer). A
// connection whose first bytes are not a plausible frame length (a four-letter word such as `srvr`) is passed
// through raw.
import * as net from 'node:net';
import { FrameReader } from '../../../src/zk/protocol/frameReader';

export interface ClientFrame {
  /** 1 for the first connection the proxy accepted, 2 for the next, ... */
  connection: number;
  /** 0 for the ConnectRequest, then 1, 2, ... */
  index: number;
  isConnectRequest: boolean;
  /** Request header fields; undefined for the ConnectRequest. */
  xid?: number;
  opCode?: number;
  /** The whole frame including its length prefix. */
  frame: Buffer;
}

export interface ServerFrame {
  /** The connection, numbered as in ClientFrame. */
  connection: number;
  /** 0 for the ConnectResponse, then 1, 2, ... */
  index: number;
  isConnectResponse: boolean;
  /** The reply header's xid (the request's xid; -1 for a watch event, -2 for a ping); undefined for the ConnectResponse. */
  xid?: number;
  /** The whole frame including its length prefix. */
  frame: Buffer;
}

export interface ProxyOptions {
  /**
   * Called for every client→server frame. Return undefined to pass it on unchanged, a Buffer (a whole frame
   * including its length prefix) to send instead, or null to swallow it.
   */
  rewriteClientFrame?: (frame: ClientFrame) => Buffer | null | undefined;
  /**
   * Called for every server→client chunk (raw bytes, not split into frames), with the connection number. Return
   * undefined to pass it on, a Buffer to send instead, or null to drop it (e.g. to lose a reply).
   */
  rewriteServerData?: (connection: number, chunk: Buffer) => Buffer | null | undefined;
  /**
   * Called for every whole server→client frame of a ZooKeeper connection (after rewriteServerData), e.g. to drop
   * the reply to one request once the server has certainly handled it. Return as for rewriteClientFrame.
   */
  rewriteServerFrame?: (frame: ServerFrame) => Buffer | null | undefined;
  /**
   * Called with the first bytes of a connection passed through raw (a four-letter word, an HTTP request). Return a
   * promise to hold the connection until it settles (to make something happen on the server meanwhile).
   */
  holdRaw?: (connection: number, head: Buffer) => Promise<void> | undefined;
}

export interface TcpProxy {
  readonly port: number;
  /** Connections accepted so far. */
  readonly connections: number;
  /** Destroys every open connection, both sides. */
  cutAll(): void;
  /** true: stop listening (connections are refused); false: listen again on the same port. */
  refuse(on: boolean): Promise<void>;
  close(): Promise<void>;
}

/** Largest frame a ZooKeeper server accepts by default (jute.maxbuffer) plus slack; anything above is not a frame. */
const MAX_FRAME = 16 * 1024 * 1024;

/** A copy of `frame` whose request opcode is `opCode`. */
export function withOpCode(frame: Buffer, opCode: number): Buffer {
  const copy = Buffer.from(frame);
  copy.writeInt32BE(opCode, 8);
  return copy;
}

export async function startProxy(targetPort: number, options: ProxyOptions = {}): Promise<TcpProxy> {
  const pairs = new Set<{ client: net.Socket; server: net.Socket }>();
  let accepted = 0;
  let listening = false;

  const onConnection = (client: net.Socket) => {
    const connection = ++accepted;
    const server = net.connect({ host: '127.0.0.1', port: targetPort });
    const pair = { client, server };
    pairs.add(pair);
    const cut = () => {
      pairs.delete(pair);
      client.destroy();
      server.destroy();
    };
    client.setNoDelay(true);
    server.setNoDelay(true);
    client.on('error', cut);
    server.on('error', cut);
    client.on('close', cut);
    server.on('close', cut);
    let raw = false;
    const replies = new FrameReader();
    let replyIndex = 0;
    server.on('data', (chunk: Buffer) => {
      const out = options.rewriteServerData ? options.rewriteServerData(connection, chunk) : undefined;
      if (out === null) return;
      if (raw || !options.rewriteServerFrame) {
        if (!client.destroyed) client.write(out ?? chunk);
        return;
      }
      replies.push(out ?? chunk);
      for (let frame = replies.next(); frame; frame = replies.next()) {
        const isConnectResponse = replyIndex === 0;
        const info: ServerFrame = {
          connection,
          index: replyIndex++,
          isConnectResponse,
          xid: !isConnectResponse && frame.length >= 8 ? frame.readInt32BE(4) : undefined,
          frame: Buffer.from(frame),
        };
        const rewritten = options.rewriteServerFrame(info);
        if (rewritten !== null && !client.destroyed) client.write(rewritten ?? info.frame);
      }
    });

    const frames = new FrameReader();
    let index = 0;
    let decided = false;
    const pending: Buffer[] = [];
    client.on('data', (chunk: Buffer) => {
      if (raw) {
        server.write(chunk);
        return;
      }
      if (!decided) {
        pending.push(chunk);
        const head = Buffer.concat(pending);
        if (head.length < 4) return;
        decided = true;
        pending.length = 0;
        const length = head.readInt32BE(0);
        if (length < 0 || length > MAX_FRAME) {
          raw = true;
          const hold = options.holdRaw?.(connection, head);
          if (!hold) {
            server.write(head);
            return;
          }
          client.pause();
          hold.then(() => {
            if (!server.destroyed) server.write(head);
            client.resume();
          }, cut);
          return;
        }
        chunk = head;
      }
      frames.push(chunk);
      for (let frame = frames.next(); frame; frame = frames.next()) {
        const isConnectRequest = index === 0;
        const info: ClientFrame = {
          connection,
          index: index++,
          isConnectRequest,
          xid: !isConnectRequest && frame.length >= 12 ? frame.readInt32BE(4) : undefined,
          opCode: !isConnectRequest && frame.length >= 12 ? frame.readInt32BE(8) : undefined,
          frame: Buffer.from(frame),
        };
        const out = options.rewriteClientFrame ? options.rewriteClientFrame(info) : undefined;
        if (out === null) continue;
        server.write(out ?? info.frame);
      }
    });
  };

  const listener = net.createServer(onConnection);
  const listen = (port: number) => new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(port, '127.0.0.1', () => {
      listener.off('error', reject);
      listening = true;
      resolve();
    });
  });
  // The listening socket closes at once; close()'s callback would wait for the open connections as well.
  const stopListening = () => {
    if (!listening) return;
    listening = false;
    listener.close();
  };
  await listen(0);
  const port = (listener.address() as net.AddressInfo).port;

  const cutAll = () => {
    for (const pair of [...pairs]) {
      pairs.delete(pair);
      pair.client.destroy();
      pair.server.destroy();
    }
  };

  return {
    port,
    get connections() { return accepted; },
    cutAll,
    async refuse(on: boolean) {
      if (on) stopListening();
      else if (!listening) await listen(port);
    },
    async close() {
      stopListening();
      cutAll();
    },
  };
}
