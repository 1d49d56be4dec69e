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
