import * as fs from 'node:fs';
import * as net from 'node:net';

/** A TCP port that was free on 127.0.0.1 a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Sends a four-letter word and returns the whole answer ('' when the server closes without one). */
export function fourLetterWord(port: number, word: string, timeoutMs = 2000): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    const done = () => { socket.destroy(); resolve(Buffer.concat(chunks).toString('utf8')); };
    socket.setTimeout(timeoutMs, done);
    socket.on('connect', () => socket.write(word));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('close', done);
    socket.on('error', done);
  });
}

/**
 * Whether process `pid` holds the listening socket of TCP `port` (Linux: /proc/net/tcp{,6} and the process's fds).
 * A free port can be taken by someone else between the check and the bind: an answer on the port is then not proof
 * that our server answered. Where /proc cannot be read, says true (nothing to check against).
 */
export function listensOn(pid: number, port: number): boolean {
  const inodes = new Set<string>();
  const portHex = port.toString(16).toUpperCase().padStart(4, '0');
  try {
    for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
      for (const line of fs.readFileSync(table, 'utf8').split('\n').slice(1)) {
        const fields = line.trim().split(/\s+/);
        // fields: sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode; st 0A = LISTEN.
        if (fields.length > 9 && fields[3] === '0A' && fields[1].endsWith(`:${portHex}`)) inodes.add(fields[9]);
      }
    }
  } catch {
    return true;
  }
  if (inodes.size === 0) return false;
  let fds: string[];
  try {
    fds = fs.readdirSync(`/proc/${pid}/fd`);
  } catch {
    return false;
  }
  return fds.some((fd) => {
    try {
      const target = fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
      return target.startsWith('socket:[') && inodes.has(target.slice(8, -1));
    } catch {
      return false;
    }
  });
}
