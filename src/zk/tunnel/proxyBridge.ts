// The hop to a member through a bastion that takes a password or a key's passphrase. The member's ssh cannot make it
// with an ssh of its own (a ProxyCommand's ssh is not ZooScope's child, so askpass answers it nothing): its
// ProxyCommand is instead a tiny bridge run by this process's own program, which connects to a socket in a fresh
// folder only the user can open; this process takes exactly one connection there (then closes it and removes the
// folder) and pipes it to the dialer's tunnel, whose ssh is its own child and gets the secret for the bastion's prompt
// only. The member's ssh is never given a secret, and the bastion's failure is the dialer's one line.
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import type { DialedSocket, Dialer } from './dialer';
import { proxyCommandLine } from '../shellWords';
import { privateNodeScript } from './nodeScript';
import { SshTunnelError } from './sshFailure';

/** The header is one short line; anything longer is not the bridge. */
const MAX_HEADER = 1024;

// Run by the program running this process (node, or VS Code's with ELECTRON_RUN_AS_NODE): argv is the socket, then
// the member's host and port as the member's ssh resolved them (%h, %p). Its stdin/stdout are the member's bytes.
const BRIDGE = `const net = require('net');
const socket = net.connect(process.argv[2]);
socket.on('connect', () => {
  socket.write(JSON.stringify({ host: process.argv[3], port: Number(process.argv[4]) }) + '\\n');
  process.stdin.pipe(socket);
  socket.pipe(process.stdout);
});
socket.on('error', () => process.exit(1));
socket.on('close', () => process.exit(0));
`;

export interface ProxyBridge {
  /** The member's ProxyCommand (ssh expands %h and %p in it; our own % are doubled). */
  readonly proxyCommand: string;
  /** The bastion's failure, when the tunnel failed before it was up (the member's ssh then says only that it closed). */
  readonly failure: SshTunnelError | undefined;
  /** Ends the tunnel and the bridge and removes the folder (again: nothing). */
  close(): void;
}

/** Opens the socket one member's ssh reaches `dialer`'s tunnel through. */
export function openProxyBridge(dialer: Dialer): ProxyBridge {
  // Named by this process, so what it leaves behind (nothing, once closed) can be told from another's. Its stdout is
  // the member's bytes.
  const { dir, launcher } = privateNodeScript(`zooscope-bridge-${process.pid}-`, 'bridge', BRIDGE);
  const socketPath = path.join(dir, 's');
  let failure: SshTunnelError | undefined;
  let tunnel: DialedSocket | undefined;
  let connection: net.Socket | undefined;
  const removeDir = () => fs.rmSync(dir, { recursive: true, force: true });
  const server = net.createServer((socket) => {
    // One connection only: nobody else gets to use this tunnel.
    server.close();
    removeDir();
    if (connection) return void socket.destroy();
    connection = socket;
    socket.on('error', () => undefined);
    let header = Buffer.alloc(0);
    const onHeader = (chunk: Buffer) => {
      header = Buffer.concat([header, chunk]);
      const end = header.indexOf(10);
      if (end < 0) {
        if (header.length > MAX_HEADER) socket.destroy();
        return;
      }
      socket.off('data', onHeader);
      socket.pause();
      let target: { host?: unknown; port?: unknown } = {};
      try { target = JSON.parse(header.subarray(0, end).toString('utf8')) as typeof target; } catch { /* not the bridge */ }
      if (typeof target.host !== 'string' || typeof target.port !== 'number') return void socket.destroy();
      // The dialer holds the host and port to ssh's words again (a refused one ends the tunnel with its line).
      const hop = dialer.dial(target.host, target.port);
      tunnel = hop;
      hop.on('error', (error: Error) => {
        if (error instanceof SshTunnelError && error.failure.kind !== 'closed') failure = error;
        socket.destroy();
      });
      hop.on('close', () => socket.destroy());
      socket.on('close', () => hop.destroy());
      const rest = header.subarray(end + 1);
      if (rest.length > 0) hop.write(rest);
      socket.pipe(hop);
      hop.pipe(socket);
      socket.resume();
    };
    socket.on('data', onHeader);
  });
  server.listen(socketPath);
  server.unref();
  const target = 'ZOOSCOPE-MEMBER';
  const proxyCommand = proxyCommandLine([launcher, socketPath, target], target, `'%h' '%p'`);
  return {
    proxyCommand,
    get failure() { return failure; },
    close: () => {
      server.close();
      removeDir();
      tunnel?.destroy();
      connection?.destroy();
    },
  };
}
