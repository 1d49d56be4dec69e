// What the SSH tunnel costs, against one standalone server reached two ways at once: directly, and through a real
// sshd on loopback (test/support/sshServer.ts), one `ssh -W` per connection:
// - connect: a ZkSession's open() (direct: TCP; tunnel: ssh starts, authenticates, forwards, then the same);
// - the lock hand-off: 2 contenders × k cycles of acquire → release in a loop (as in locksBench).
// Paired: each round measures both, order alternating, and the ratio to direct is taken per round. On loopback the
// tunnel's cost is ssh's own (process start, key exchange, encryption), not a network's.
// Also standalone: `node out/bench/sshBench.js [rounds]`.
import * as os from 'node:os';
import { LockManager } from '../src/zk/locks';
import { SessionOptions, ZkSession } from '../src/zk/session/session';
import { startSshBastion } from '../test/support/sshServer';
import { startStandalone } from '../test/support/zkServer';
import { formatTable, now, Row, summarize } from './stats';

const CONTENDERS = 2;
const CYCLES = 150;

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

type Kind = 'direct' | 'tunnel';

export async function sshBench(rounds: number): Promise<Row[]> {
  const [cluster, bastion] = await Promise.all([startStandalone(), startSshBastion()]);
  try {
    const kinds: Record<Kind, SessionOptions> = {
      direct: { connectString: cluster.connectString },
      tunnel: { connectString: cluster.connectString, ssh: bastion.settings() },
    };
    for (const kind of ['direct', 'tunnel'] as const) {
      await openMs(kinds[kind]);
      await loopRate(kinds[kind], '/bench/ssh/warm');
    }
    const connect: Record<Kind, number[]> = { direct: [], tunnel: [] };
    const loop: Record<Kind, number[]> = { direct: [], tunnel: [] };
    const load: number[] = [];
    for (let round = 0; round < rounds; round++) {
      load.push(os.loadavg()[0]);
      const order: Kind[] = round % 2 ? ['tunnel', 'direct'] : ['direct', 'tunnel'];
      for (const kind of order) connect[kind].push(await openMs(kinds[kind]));
      for (const kind of order) loop[kind].push(await loopRate(kinds[kind], `/bench/ssh/${kind}-${round}`));
    }
    const handoff = (kind: Kind) => loop[kind].map((rate) => 1000 / rate);
    return [
      { bench: 'ssh', case: 'connect: direct (ZkSession.open)', unit: 'ms', summary: summarize(connect.direct), samples: connect.direct, load },
      {
        bench: 'ssh', case: 'connect: through the SSH bastion, vs direct', unit: 'ms', summary: summarize(connect.tunnel), samples: connect.tunnel, load,
        baseline: { label: 'direct, same round', summary: summarize(connect.direct) }, ratios: connect.tunnel.map((ms, i) => ms / connect.direct[i]),
      },
      { bench: 'ssh', case: `lock hand-off, ${CONTENDERS} contenders in a loop: direct`, unit: 'ms', summary: summarize(handoff('direct')), samples: handoff('direct'), load },
      {
        bench: 'ssh', case: `lock hand-off, ${CONTENDERS} contenders in a loop: through the SSH bastion, vs direct`, unit: 'ms',
        summary: summarize(handoff('tunnel')), samples: handoff('tunnel'), load, baseline: { label: 'direct, same round', summary: summarize(handoff('direct')) },
        ratios: loop.tunnel.map((rate, i) => loop.direct[i] / rate),
      },
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
