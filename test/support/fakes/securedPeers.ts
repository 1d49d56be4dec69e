// Misbehaving peers on the secured paths, for the fault tests (test/unit/securedFaults.test.ts): a TLS port that
// accepts TCP and never answers the ClientHello, a TLS server that completes a real handshake (test certificates)
// and then answers with garbage, and a plain peer that grants a session and then mishandles the SASL exchange. Real
// sockets on loopback; they are the peers under test, not stand-ins for ZooKeeper (the secured integration tests use
// real servers).
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as tls from 'node:tls';
import { FrameReader } from '../../../src/zk/protocol/frameReader';
import type { FakeServer } from './fakePeers';

/** What `srvr` gets from a scripted peer: enough for the session's probe to call it a ZooKeeper server. */
export const SRVR_ANSWER = 'Zookeeper version: 3.8.0-scripted, built on 01/01/2026\nMode: standalone\n';

export interface ScriptedConnection {
  /** 1 for the first connection, 2 for the next, ... */
  index: number;
  socket: net.Socket;
  /** Every frame the client sent on this connection so far (with its length prefix), the ConnectRequest first. */
  frames: Buffer[];
}

export interface ScriptedPeer extends FakeServer {
  /** Every connection that sent at least one frame (probes are answered and not listed). */
  readonly sessions: ScriptedConnection[];
  /** Raw TCP connections accepted, probes included. */
  readonly accepted: number;
}

/**
 * A peer that speaks the client protocol's framing, plain or over TLS: `onFrame` gets each frame the client sends
 * (the ConnectRequest is number 1 on each connection). A four-letter word as the first bytes of a plain connection
 * is answered with `srvr` (SRVR_ANSWER) and the connection closed.
 */
export async function startScriptedPeer(o: {
  tls?: { key: Buffer; cert: Buffer };
  /** The first this many TCP connections are accepted and never answered (a server hung for a moment). */
  silentFirst?: number;
  onFrame(c: ScriptedConnection, frame: Buffer, number: number): void;
}): Promise<ScriptedPeer> {
  const raw = new Set<net.Socket>();
  const sessions: ScriptedConnection[] = [];
  let accepted = 0;
  let index = 0;
  const serve = (socket: net.Socket) => {
    const reader = new FrameReader();
    let connection: ScriptedConnection | undefined;
    let first = true;
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk: Buffer) => {
      if (first && !o.tls && chunk.length >= 4 && /^[a-z]{4}$/.test(chunk.subarray(0, 4).toString('latin1'))) {
        socket.end(SRVR_ANSWER);
        return;
      }
      first = false;
      reader.push(chunk);
      for (;;) {
        let f: Buffer | undefined;
        try {
          f = reader.next();
        } catch {
          socket.destroy();
          return;
        }
        if (!f) break;
        if (!connection) {
          connection = { index: ++index, socket, frames: [] };
          sessions.push(connection);
        }
        connection.frames.push(Buffer.from(f));
        if (!socket.destroyed) o.onFrame(connection, f, connection.frames.length);
      }
    });
  };
  const secure = o.tls ? tls.createServer({ key: o.tls.key, cert: o.tls.cert }, serve) : undefined;
  // A client that gives up during the handshake is no failure of the peer.
  secure?.on('tlsClientError', () => undefined);
  const server = net.createServer((socket) => {
    accepted++;
    raw.add(socket);
    socket.on('close', () => raw.delete(socket));
    socket.on('error', () => socket.destroy());
    if (accepted <= (o.silentFirst ?? 0)) return;
    if (secure) secure.emit('connection', socket);
    else serve(socket);
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port));
  });
  return {
    port,
    sessions,
    get accepted() { return accepted; },
    get connections() { return sessions.length; },
    close: () => new Promise<void>((resolve) => {
      for (const socket of raw) socket.destroy();
      server.close(() => resolve());
    }),
  };
}

/** A port that accepts TCP and never says a word (a TLS server hung before its ServerHello); counts connections. */
export async function startSilentPeer(): Promise<FakeServer & { readonly open: number }> {
  const sockets = new Set<net.Socket>();
  let connections = 0;
  const server = net.createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port));
  });
  return {
    port,
    get connections() { return connections; },
    get open() { return sockets.size; },
    close: () => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }),
  };
}

/** A ConnectResponse frame granting session 0x1234 with a 16-byte password (`timeOutMs` > 0: a live session). */
export function grantedSession(timeOutMs = 6000): Buffer {
  const body = Buffer.alloc(36, 7);
  body.writeInt32BE(0, 0);
  body.writeInt32BE(timeOutMs, 4);
  body.writeBigInt64BE(0x1234n, 8);
  body.writeInt32BE(16, 16);
  return withLength(body);
}

/** A reply frame: header (xid, zxid 0, err) and then `body` as it is. */
export function replyFrame(xid: number, err: number, body: Buffer = Buffer.alloc(0)): Buffer {
  const head = Buffer.alloc(16);
  head.writeInt32BE(xid, 0);
  head.writeInt32BE(err, 12);
  return withLength(Buffer.concat([head, body]));
}

/** A SASL reply: the reply header and the server's token as a jute buffer. */
export function saslReply(xid: number, token: Buffer | string): Buffer {
  const data = Buffer.from(token);
  const length = Buffer.alloc(4);
  length.writeInt32BE(data.length, 0);
  return replyFrame(xid, 0, Buffer.concat([length, data]));
}

/** The xid and opcode of a request frame (with its length prefix). */
export function requestHeader(frame: Buffer): { xid: number; type: number } {
  return { xid: frame.readInt32BE(4), type: frame.readInt32BE(8) };
}

function withLength(body: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeInt32BE(body.length, 0);
  return Buffer.concat([head, body]);
}

/** A CA and a server certificate for localhost and 127.0.0.1 signed by it, in a temp folder (openssl only). */
export function temporaryServerCertificate(): { caCrt: string; key: Buffer; cert: Buffer; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-peer-certs-'));
  const openssl = (args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  openssl(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '2', '-subj', '/CN=Peer Test CA']);
  openssl(['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost']);
  fs.writeFileSync(path.join(dir, 'server.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  openssl(['x509', '-req', '-in', 'server.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.crt', '-days', '2', '-extfile', 'server.ext']);
  return {
    caCrt: path.join(dir, 'ca.crt'),
    key: fs.readFileSync(path.join(dir, 'server.key')),
    cert: fs.readFileSync(path.join(dir, 'server.crt')),
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
