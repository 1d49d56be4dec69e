// What the SSH tunnel costs, against one standalone server reached directly and through a real sshd on loopback
// (test/support/servers/sshServer.ts), one `ssh -W` per connection:
// - connect: a ZkSession's open() (direct: TCP; tunnel: ssh starts, authenticates, forwards, then the same);
// - the lock hand-off: 2 contenders × k cycles of acquire → release in a loop (as in locksBench), direct, through
//   our tunnel, and through our tunnel without the byte it sends ahead for sshd's ACK (src/zk/tunnel/ackNudge.ts),
//   which is how a bare `ssh -W` carries it: an event after a reply waits up to 40 ms for a delayed ACK;
// - the carrier alone: a client of a few lines (bench/rawZkClient.ts) doing the handshake, then `exists` round
//   trips one at a time, over a TCP socket (the raw client), over a bare `ssh -W` spawned with the same command
//   line as ours (its stdin/stdout, nothing of ours in between), and over our tunnel socket. The bare `ssh -W` is
//   the floor: what ssh itself adds per round trip and per connect on this machine.
// Paired: each round measures every kind, order alternating, and the ratios are taken per round. On loopback the
// tunnel's cost is ssh's own (process start, key exchange, encryption, two more hops each way), not a network's.
// Also standalone: `node out/bench/sshBench.js [rounds]`.
import { spawn } from 'node:child_process';
import * as net from 'node:net';
import * as os from 'node:os';
import type { Readable, Writable } from 'node:stream';
import { LockManager } from '../src/zk/locks';
import { SessionOptions, ZkSession } from '../src/zk/session/session';
import { SshDialer } from '../src/zk/tunnel/dialer';
import { sshTunnelCommand } from '../src/zk/tunnel/sshCommand';
import type { SshTunnelSettings } from '../src/zk/tunnel/sshSettings';
import { SshTunnelSocket } from '../src/zk/tunnel/tunnelSocket';
import { startSshBastion } from '../test/support/servers/sshServer';
import { startStandalone } from '../test/support/servers/zkServer';
import { RawZkClient } from './rawZkClient';
import { formatTable, now, Row, summarize } from './stats';

const CONTENDERS = 2;
const CYCLES = 150;
const ROUND_TRIPS = 300;

async function openMs(options: SessionOptions): Promise<number> {
  const session = new ZkSession(options);
  const start = now();
  try {
    await session.open();
    return now() - start;
  } finally {
    session.close();
  }
}

/** Acquisitions per second of CONTENDERS managers taking one lock CYCLES times each. */
async function loopRate(options: SessionOptions, lockPath: string): Promise<number> {
  const managers = Array.from({ length: CONTENDERS }, () => new LockManager({ ...options, sessionTimeoutMs: 30000, requestTimeoutMs: 30000 }));
  try {
    await Promise.all(managers.map((m) => m.open()));
    const start = now();
    await Promise.all(managers.map(async (m) => {
      for (let i = 0; i < CYCLES; i++) {
        const h = await m.acquire(lockPath);
        await h.whenHeld();
        await h.release();
      }
    }));
    return (CONTENDERS * CYCLES) / ((now() - start) / 1000);
  } finally {
    for (const m of managers) m.close();
  }
}

type Carrier = 'raw' | 'bare' | 'tunnel';
interface Carried { input: Readable; output: Writable; close(): void }

/** A byte stream to the server: TCP, a bare `ssh -W` (our command line, spawned plainly), or our tunnel socket. */
function carry(kind: Carrier, host: string, port: number, ssh: SshTunnelSettings): Carried {
  if (kind === 'raw') {
    const socket = net.connect({ host, port, noDelay: true });
    return { input: socket, output: socket, close: () => socket.destroy() };
  }
  if (kind === 'bare') {
    const command = sshTunnelCommand(ssh, host, port);
    const child = spawn(command.program, command.args, { stdio: ['pipe', 'pipe', 'ignore'] });
    return { input: child.stdout, output: child.stdin, close: () => child.kill() };
  }
  const socket = new SshDialer(ssh).dial(host, port);
  socket.carryZooKeeperFrames();
  return { input: socket, output: socket, close: () => socket.destroy() };
}

/** Spawn (or connect) to the handshake's answer, then the mean of ROUND_TRIPS `exists` round trips. */
async function carried(kind: Carrier, host: string, port: number, ssh: SshTunnelSettings): Promise<{ connect: number; roundTrip: number }> {
  const start = now();
  const carrier = carry(kind, host, port, ssh);
  try {
    const client = new RawZkClient(carrier.input, carrier.output);
    await client.handshake();
    const connect = now() - start;
    for (let i = 0; i < 20; i++) await client.exists('/');
    const begin = now();
    for (let i = 0; i < ROUND_TRIPS; i++) await client.exists('/');
    return { connect, roundTrip: (now() - begin) / ROUND_TRIPS };
  } finally {
    carrier.close();
  }
}

/** Runs `work` with tunnels that send no byte ahead: the hand-off as a bare `ssh -W` carries it. */
async function withoutByteAhead<T>(work: () => Promise<T>): Promise<T> {
  const carry = SshTunnelSocket.prototype.carryZooKeeperFrames;
  SshTunnelSocket.prototype.carryZooKeeperFrames = () => undefined;
  try {
    return await work();
  } finally {
    SshTunnelSocket.prototype.carryZooKeeperFrames = carry;
  }
}

type Kind = 'direct' | 'tunnel';
type LoopKind = Kind | 'noByteAhead';

export async function sshBench(rounds: number): Promise<Row[]> {
  const [cluster, bastion] = await Promise.all([startStandalone(), startSshBastion()]);
  try {
    const kinds: Record<Kind, SessionOptions> = {
      direct: { connectString: cluster.connectString },
      tunnel: { connectString: cluster.connectString, ssh: bastion.settings() },
    };
    const [host, port] = ['127.0.0.1', cluster.members[0].clientPort];
    const carriers: Carrier[] = ['raw', 'bare', 'tunnel'];
    for (const kind of ['direct', 'tunnel'] as const) {
      await openMs(kinds[kind]);
      await loopRate(kinds[kind], '/bench/ssh/warm');
    }
    for (const c of carriers) await carried(c, host, port, bastion.settings());
    const loopKinds: LoopKind[] = ['direct', 'tunnel', 'noByteAhead'];
    const connect: Record<Kind, number[]> = { direct: [], tunnel: [] };
    const loop: Record<LoopKind, number[]> = { direct: [], tunnel: [], noByteAhead: [] };
    const carrierConnect: Record<Carrier, number[]> = { raw: [], bare: [], tunnel: [] };
    const roundTrip: Record<Carrier, number[]> = { raw: [], bare: [], tunnel: [] };
    const load: number[] = [];
    for (let round = 0; round < rounds; round++) {
      load.push(os.loadavg()[0]);
      const order: Kind[] = round % 2 ? ['tunnel', 'direct'] : ['direct', 'tunnel'];
      for (const kind of order) connect[kind].push(await openMs(kinds[kind]));
      for (const kind of round % 2 ? [...loopKinds].reverse() : loopKinds) {
        const rate = () => loopRate(kinds[kind === 'noByteAhead' ? 'tunnel' : kind], `/bench/ssh/${kind}-${round}`);
        loop[kind].push(await (kind === 'noByteAhead' ? withoutByteAhead(rate) : rate()));
      }
      for (const c of round % 2 ? [...carriers].reverse() : carriers) {
        const figures = await carried(c, host, port, bastion.settings());
        carrierConnect[c].push(figures.connect);
        roundTrip[c].push(figures.roundTrip);
      }
    }
    const handoff = (kind: LoopKind) => loop[kind].map((rate) => 1000 / rate);
    const per = (list: number[], base: number[]) => list.map((x, i) => x / base[i]);
    const row = (what: string, samples: number[], base?: { label: string; samples: number[] }, goal?: Row['goal']): Row => ({
      bench: 'ssh', case: what, unit: 'ms', summary: summarize(samples), samples, load, goal,
      ...(base ? { baseline: { label: base.label, summary: summarize(base.samples) }, ratios: per(samples, base.samples) } : {}),
    });
    const sameRound = (label: string, samples: number[]) => ({ label: `${label}, same round`, samples });
    return [
      row('connect: direct (ZkSession.open)', connect.direct),
      row('connect: through the SSH bastion, vs direct', connect.tunnel, sameRound('direct', connect.direct)),
      row('connect + handshake: raw client over TCP', carrierConnect.raw),
      row('connect + handshake: raw client over a bare ssh -W (the floor), vs TCP', carrierConnect.bare, sameRound('TCP', carrierConnect.raw)),
      row('connect + handshake: raw client over our tunnel socket, vs bare ssh -W', carrierConnect.tunnel, sameRound('bare ssh -W', carrierConnect.bare)),
      row('round trip (exists): raw client over TCP', roundTrip.raw),
      row('round trip (exists): raw client over a bare ssh -W (the floor), vs TCP', roundTrip.bare, sameRound('TCP', roundTrip.raw)),
      row('round trip (exists): raw client over our tunnel socket, vs bare ssh -W', roundTrip.tunnel, sameRound('bare ssh -W', roundTrip.bare)),
      row(`lock hand-off, ${CONTENDERS} contenders in a loop: direct`, handoff('direct')),
      row(`lock hand-off, ${CONTENDERS} contenders in a loop: through the SSH bastion, vs direct`, handoff('tunnel'), sameRound('direct', handoff('direct')),
        { op: '<=', value: 1.2, on: 'ratio' }),
      row(`lock hand-off, ${CONTENDERS} contenders in a loop: through the SSH bastion without the byte ahead (as a bare ssh -W), vs direct`,
        handoff('noByteAhead'), sameRound('direct', handoff('direct'))),
    ];
  } finally {
    await Promise.all([cluster.stop(), bastion.stop()]);
  }
}

if (require.main === module) {
  void sshBench(Math.max(5, Number(process.argv[2] ?? 7))).then((rows) => {
    console.log(formatTable(rows));
    process.exit(0);
  }, (error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
