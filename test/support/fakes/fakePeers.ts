// Misbehaving peers on loopback for the bounded-reader tests: real sockets and a real HTTP server that send what a
// broken or hostile server might (garbage, impossible frame lengths, answers that never end). They are the peers
// under test, not stand-ins for ZooKeeper: everything ZooKeeper itself does is tested against real servers.
import * as http from 'node:http';
import * as net from 'node:net';
import { FrameReader } from '../../../src/zk/protocol/frameReader';

/** `body` with its 4-byte big-endian length in front. */
export function frame(body: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeInt32BE(body.length, 0);
  return Buffer.concat([head, body]);
}

/** A ConnectResponse frame: protocol 0, the timeout, a session id and a 16-byte password (or a lying length). */
export function connectResponse(o: { timeOutMs?: number; passwordLength?: number } = {}): Buffer {
  const body = Buffer.alloc(20 + 16, 7);
  body.writeInt32BE(0, 0);
  body.writeInt32BE(o.timeOutMs ?? 4000, 4);
  body.writeBigInt64BE(0x1234n, 8);
  body.writeInt32BE(o.passwordLength ?? 16, 16);
  return frame(body);
}

/** The answer to a ping: reply header xid -2, zxid 0, err 0. */
function pingReply(): Buffer {
  const body = Buffer.alloc(16);
  body.writeInt32BE(-2, 0);
  return frame(body);
}

export interface PeerConnection {
  /** 1 for the first connection, 2 for the next, ... */
  index: number;
  socket: net.Socket;
}

export interface FakeServer {
  readonly port: number;
  readonly connections: number;
  close(): Promise<void>;
}

function listen(server: net.Server | http.Server, sockets: Set<net.Socket>): Promise<number> {
  server.on('connection', (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port));
  });
}

function closer(server: net.Server | http.Server, sockets: Set<net.Socket>): () => Promise<void> {
  return () => new Promise((resolve) => {
    for (const socket of sockets) socket.destroy();
    server.close(() => resolve());
  });
}

/**
 * A peer that speaks just enough of the client protocol: `onConnectRequest` decides what to send once the client's
 * ConnectRequest arrived (a handshake answer, garbage, ...); later pings are answered. A four-letter word (a
 * probe) gets `wordAnswer` and the connection is closed.
 */
export async function startFakeZooKeeper(onConnectRequest: (c: PeerConnection) => void, wordAnswer = 'not a ZooKeeper server\n'): Promise<FakeServer> {
  const sockets = new Set<net.Socket>();
  let connections = 0;
  const server = net.createServer((socket) => {
    const index = ++connections;
    const frames = new FrameReader();
    let first = true;
    socket.on('data', (chunk: Buffer) => {
      if (first && chunk.length >= 4 && /^[a-z]{4}$/.test(chunk.subarray(0, 4).toString('latin1'))) {
        socket.end(wordAnswer);
        return;
      }
      frames.push(chunk);
      for (let f = frames.next(); f; f = frames.next()) {
        if (first) {
          first = false;
          onConnectRequest({ index, socket });
        } else if (f.length >= 12 && f.readInt32BE(8) === 11 && !socket.destroyed) {
          socket.write(pingReply());
        }
      }
    });
  });
  const port = await listen(server, sockets);
  return { port, get connections() { return connections; }, close: closer(server, sockets) };
}

/** A plain TCP peer: `onConnection` gets every socket (for four-letter-word readers). */
export async function startRawPeer(onConnection: (socket: net.Socket) => void): Promise<FakeServer> {
  const sockets = new Set<net.Socket>();
  let connections = 0;
  const server = net.createServer((socket) => {
    connections++;
    onConnection(socket);
  });
  const port = await listen(server, sockets);
  return { port, get connections() { return connections; }, close: closer(server, sockets) };
}

/** An HTTP peer for AdminServer readers. */
export async function startHttpPeer(handler: http.RequestListener): Promise<FakeServer> {
  const sockets = new Set<net.Socket>();
  let connections = 0;
  const server = http.createServer((req, res) => {
    connections++;
    handler(req, res);
  });
  const port = await listen(server, sockets);
  return { port, get connections() { return connections; }, close: closer(server, sockets) };
}

/**
 * Writes `chunk` again and again, as fast as the reader takes it, until `limit` bytes were sent or the reader
 * closed; resolves with the bytes written. After `limit` the stream stays open and silent.
 */
export function flood(out: NodeJS.WritableStream & { destroyed?: boolean }, limit: number, chunk = Buffer.alloc(1024 * 1024, 'x')): Promise<number> {
  return new Promise((resolve) => {
    let sent = 0;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      resolve(sent);
    };
    out.on('close', finish);
    out.on('error', finish);
    const pump = () => {
      while (!done && !out.destroyed && sent < limit) {
        sent += chunk.length;
        if (!out.write(chunk)) return void out.once('drain', pump);
      }
      if (sent >= limit) finish();
    };
    pump();
  });
}
