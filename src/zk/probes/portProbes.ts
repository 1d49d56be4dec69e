// Says what a port speaks when a connection dies without a word: a plain ZooKeeper server closes a TLS hello
// (it reads it as an absurd frame length), and a TLS server closes our plain ConnectRequest (NotSslRecord).
// Each probe is one short extra connection, made only after such a failure.
import * as tls from 'node:tls';
import { isIP } from 'node:net';
import { probeServer } from './serverProbe';
import type { Dialer } from '../tunnel/dialer';

/** Whether `host:port` answers a TLS hello with TLS (a handshake, or a TLS alert); no certificate is checked. */
export function speaksTls(host: string, port: number, timeoutMs = 3000): Promise<boolean> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (answer: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const socket = tls.connect({ host, port, rejectUnauthorized: false, servername: isIP(host) ? undefined : host });
    socket.on('secureConnect', () => finish(true));
    // A TLS alert (the server wants a certificate we did not send, no common cipher) still proves TLS.
    socket.on('error', (error: { code?: string }) => finish(/^ERR_SSL_|^ERR_TLS_/.test(error.code ?? '')));
    socket.on('close', () => finish(false));
    const timer = setTimeout(() => finish(false), timeoutMs);
  });
}

/** Whether `host:port` is a plain ZooKeeper port (it answers the `srvr` four-letter word in clear text). */
export async function isPlainZooKeeper(host: string, port: number, timeoutMs = 3000, dialer?: Dialer): Promise<boolean> {
  const result = await probeServer(host, port, timeoutMs, undefined, dialer);
  return result.outcome === 'zookeeper' || result.outcome === 'notServing';
}
