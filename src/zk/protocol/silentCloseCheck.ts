// A plain connection the server closed before saying a word: a TLS port does that (Netty drops a record that is not
// TLS), and the library would retry silently forever. Asks the port once in a while whether it speaks TLS.
import { performance } from 'node:perf_hooks';
import { speaksTls } from '../probes/portProbes';
import { plainToTlsPortLine, TlsFailure } from '../security/tlsFailure';
import type { LibrarySocket } from './libraryInternals';

/** How long a server is not asked again whether it speaks TLS (ms). */
const ASK_AGAIN_AFTER_MS = 5000;

export class SilentCloseCheck {
  /** The plain connection being set up, and whether its server has said anything yet. */
  private attempt: { socket: LibrarySocket; host: string; port: number; heard: boolean } | undefined;
  /** When each server was last asked whether it speaks TLS (performance.now()). */
  private readonly asked = new Map<string, number>();

  /** `stopped`: whether the channel stopped connecting (then nothing is worth saying). */
  constructor(private readonly stopped: () => boolean, private readonly report: (server: string, failure: TlsFailure) => void) {}

  /** A plain socket connected: watch whether its server says anything. */
  connected(socket: LibrarySocket | undefined): void {
    this.attempt = socket?.remoteAddress && socket.remotePort
      ? { socket, host: socket.remoteAddress, port: socket.remotePort, heard: false }
      : undefined;
  }

  heard(socket: LibrarySocket | undefined): void {
    const attempt = this.attempt;
    if (attempt && attempt.socket === socket) attempt.heard = true;
  }

  /** The socket in use (`current`) closed: if its server never said a word, ask whether the port speaks TLS. */
  closed(current: LibrarySocket | undefined): void {
    const attempt = this.attempt;
    this.attempt = undefined;
    if (!attempt || attempt.heard || attempt.socket !== current || this.stopped()) return;
    const server = `${attempt.host}:${attempt.port}`;
    const now = performance.now();
    if (now - (this.asked.get(server) ?? -Infinity) < ASK_AGAIN_AFTER_MS) return;
    this.asked.set(server, now);
    void speaksTls(attempt.host, attempt.port).then((tls) => {
      if (tls && !this.stopped()) this.report(server, plainToTlsPortLine(server));
    });
  }
}
