// Tells why a server cannot be used: refused, unresolvable, silent, not ZooKeeper at all, or a ZooKeeper that
// is not serving (no quorum). It asks with `srvr`, the one four-letter word every server answers, even one whose
// whitelist refuses the others.
import { directDialer, Dialer } from '../tunnel/dialer';
import { SshTunnelError } from '../tunnel/sshFailure';

export type ProbeOutcome = 'zookeeper' | 'notServing' | 'refused' | 'unresolved' | 'timedOut' | 'notZooKeeper' | 'error';

export interface ProbeResult {
  server: string;
  outcome: ProbeOutcome;
  /** The server's version for `zookeeper`, or the system error text. */
  detail?: string;
}

/** Outcomes that no amount of waiting within a session timeout is likely to change. */
export function isDefinitiveFailure(outcome: ProbeOutcome): boolean {
  return outcome === 'refused' || outcome === 'unresolved' || outcome === 'notZooKeeper';
}

export function classifySrvrAnswer(answer: string): { outcome: ProbeOutcome; detail?: string } {
  const version = /Zookeeper version: ([^\s,]+)/i.exec(answer);
  if (version) return { outcome: 'zookeeper', detail: version[1] };
  if (/not currently serving requests/i.test(answer)) return { outcome: 'notServing' };
  if (/is not executed because it is not in the whitelist/i.test(answer)) return { outcome: 'zookeeper' };
  return { outcome: 'notZooKeeper', detail: answer.slice(0, 80) };
}

/** A tunnel's failure as a probe outcome: what the bastion says of the member, or the bastion's own problem. */
function tunnelOutcome(error: SshTunnelError): Omit<ProbeResult, 'server'> {
  const { kind, line } = error.failure;
  if (kind === 'memberRefused' || kind === 'bastionUnreachable') return { outcome: 'refused', detail: line };
  if (kind === 'bastionUnresolved') return { outcome: 'unresolved', detail: line };
  return { outcome: 'error', detail: line };
}

/** `srvr` answers in a few hundred bytes; a peer that sends more than this is not a ZooKeeper server. */
const MAX_SRVR_BYTES = 64 * 1024;

/**
 * Asks one server with `srvr`; an abort ends the probe at once with outcome `error` (detail `cancelled`). The
 * answer must come within `timeoutMs` in all (not an idle timeout: a trickle of bytes would never reach it) and
 * within MAX_SRVR_BYTES.
 */
export function probeServer(host: string, port: number, timeoutMs = 3000, signal?: AbortSignal, dialer: Dialer = directDialer): Promise<ProbeResult> {
  const server = `${host}:${port}`;
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const finish = (result: Omit<ProbeResult, 'server'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      socket.destroy();
      resolve({ server, ...result });
    };
    const onAbort = () => finish({ outcome: 'error', detail: 'cancelled' });
    const socket = dialer.dial(host, port);
    const timer = setTimeout(() => finish(chunks.length ? classifySrvrAnswer(Buffer.concat(chunks).toString('latin1')) : { outcome: 'timedOut' }), timeoutMs);
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    socket.on('connect', () => socket.write('srvr'));
    socket.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > MAX_SRVR_BYTES) return finish({ outcome: 'notZooKeeper', detail: `answered 'srvr' with more than ${MAX_SRVR_BYTES} bytes` });
      chunks.push(chunk);
    });
    socket.on('end', () => finish(classifySrvrAnswer(Buffer.concat(chunks).toString('latin1'))));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error instanceof SshTunnelError) return finish(tunnelOutcome(error));
      if (error.code === 'ECONNREFUSED') finish({ outcome: 'refused' });
      else if (error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN') finish({ outcome: 'unresolved', detail: error.code });
      else finish({ outcome: 'error', detail: error.code ?? error.message });
    });
  });
}
