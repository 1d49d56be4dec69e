// Keeps a connection honest, as the Java client does: pings every third of the negotiated session timeout (less a
// margin), and a connection that brings nothing for two thirds of it is dropped, so the session is known to be
// suspended before the ensemble can expire it (node-zookeeper-client pings but never notices that no answer comes).
import { performance } from 'node:perf_hooks';

/** The timings of a connection's liveness check, from the negotiated session timeout (ms). */
export function livenessTimings(sessionTimeoutMs: number): { readTimeoutMs: number; pingIntervalMs: number } {
  // Two thirds, as the Java client: the ensemble expires a session no sooner than its timeout after the last
  // touch the leader saw, so the client knows first, with a third to spare for pings in flight.
  const readTimeoutMs = Math.floor((sessionTimeoutMs * 2) / 3);
  // A third less a second (at most a sixth), as the Java client: the leader hears of a follower's touches only on
  // its own pings (every half tick), so the touch it saw last may be one ping older than the last answer we got.
  const pingIntervalMs = Math.max(1, Math.floor(sessionTimeoutMs / 3 - Math.min(1000, sessionTimeoutMs / 6)));
  return { readTimeoutMs, pingIntervalMs };
}

/** What the liveness check watches and acts on: the library's connection as it is at each look. */
export interface LivenessLink {
  /** The socket in use now, if any; the check follows one socket and stops when another takes its place. */
  readonly socket: unknown;
  /** Whether that socket carries a session. */
  readonly connected: boolean;
  /** The negotiated session timeout (ms). */
  readonly sessionTimeoutMs: number;
  /** Queues a ping. */
  ping(): void;
  /** Drops the connection, saying why. */
  drop(reason: string): void;
}

export class Liveness {
  /** The socket watched (the connected one), and its timer. */
  private socket: unknown;
  private timer: NodeJS.Timeout | undefined;
  /** now() of the last bytes received, and of the last ping sent. */
  private lastHeard = 0;
  private lastPing = 0;

  constructor(private readonly link: LivenessLink, private readonly now: () => number = () => performance.now()) {}

  /** Any bytes count as a sign of life, as in the Java client (a huge reply arrives in many chunks). */
  heard(): void {
    this.lastHeard = this.now();
  }

  /** Starts pinging the socket and watching it for silence once it is connected, unless it is watched already. */
  watchConnected(): void {
    if (this.socket === this.link.socket || !this.link.connected) return;
    this.stop();
    this.socket = this.link.socket;
    this.lastPing = this.now();
    this.schedule();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.socket = undefined;
  }

  private schedule(): void {
    const { readTimeoutMs, pingIntervalMs } = livenessTimings(this.link.sessionTimeoutMs);
    const next = Math.min(this.lastHeard + readTimeoutMs, this.lastPing + pingIntervalMs) - this.now();
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.check(false), Math.max(1, Math.ceil(next)));
    // The socket keeps the process alive while the connection matters; this timer need not.
    this.timer.unref();
  }

  private check(afterIo: boolean): void {
    const link = this.link;
    if (!this.socket || link.socket !== this.socket) return;
    if (!link.connected) return this.stop();
    const { readTimeoutMs, pingIntervalMs } = livenessTimings(link.sessionTimeoutMs);
    const now = this.now();
    const silentMs = now - this.lastHeard;
    if (silentMs >= readTimeoutMs) {
      // A busy event loop runs timers before it reads sockets: let it read what may have arrived meanwhile (a
      // setImmediate runs after the poll phase) before calling the server silent.
      if (!afterIo) {
        setImmediate(() => this.check(true));
        return;
      }
      return link.drop(`no reply for ${Math.round(silentMs)} ms (allowed: ${readTimeoutMs} ms, two thirds of the ${link.sessionTimeoutMs} ms session timeout)`);
    }
    if (now - this.lastPing >= pingIntervalMs) {
      this.lastPing = now;
      link.ping();
    }
    this.schedule();
  }
}
