// What security costs, against one server that serves plain, TLS (RSA-2048, clientAuth=need, client certificate)
// and TLS + SASL DIGEST-MD5 at once, so only the transport differs:
// - connect: a ZkSession's open() (TCP, TLS handshake, ConnectRequest, SASL, CONNECTED);
// - the lock hand-off: 2 contenders × k cycles of acquire → release in a loop (as in locksBench), over TLS + SASL
//   against plain.
// Paired: each round measures every kind, in rotating order, and the ratio to plain is taken per round.
// Also standalone: `node out/bench/securedBench.js [rounds]`.
import * as os from 'node:os';
import { LockManager } from '../src/zk/locks';
import { SessionOptions, ZkSession } from '../src/zk/session/session';
import { SASL_USERS, SecuredZkServer, temporaryCertificates } from '../test/support/servers/securedZkServer';
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

type Kind = 'plain' | 'tls' | 'tlsSasl';
const LABEL: Record<Kind, string> = { plain: 'plain', tls: 'TLS', tlsSasl: 'TLS + SASL' };

export async function securedBench(rounds: number): Promise<Row[]> {
  const certs = temporaryCertificates();
  const c = certs.certificates;
  // Full JIT (no quick-start flags): the TLS crypto of the server is what is measured.
  const server = await SecuredZkServer.start({ certificates: c, tls: { keyStore: 'pkcs12', clientAuth: 'need' }, sasl: 'optional', quickStartJvm: false });
  try {
    const tls = { caFile: c.caCrt, certFile: c.clientCrt, keyFile: c.clientKey };
    const kinds: Record<Kind, SessionOptions> = {
      plain: { connectString: server.plainAddress },
      tls: { connectString: server.tlsAddress, tls },
      tlsSasl: { connectString: server.tlsAddress, tls, sasl: { mechanism: 'DIGEST-MD5', username: 'alice', password: SASL_USERS.alice } },
    };
    const names = Object.keys(kinds) as Kind[];
    // Warm-up: the first TLS handshake after a server start is slow (the JVM loads its TLS stack).
    for (const name of names) await openMs(kinds[name]);
    await loopRate(kinds.plain, '/bench/secured/warm');
    await loopRate(kinds.tlsSasl, '/bench/secured/warm');
    const connect: Record<Kind, number[]> = { plain: [], tls: [], tlsSasl: [] };
    const loop: Record<'plain' | 'tlsSasl', number[]> = { plain: [], tlsSasl: [] };
    const load: number[] = [];
    for (let round = 0; round < rounds; round++) {
      load.push(os.loadavg()[0]);
      for (let k = 0; k < names.length; k++) {
        const name = names[(round + k) % names.length];
        connect[name].push(await openMs(kinds[name]));
      }
      const order: ('plain' | 'tlsSasl')[] = round % 2 ? ['tlsSasl', 'plain'] : ['plain', 'tlsSasl'];
      for (const name of order) loop[name].push(await loopRate(kinds[name], `/bench/secured/${name}-${round}`));
    }
    const rows: Row[] = [{ bench: 'secured', case: 'connect: plain (ZkSession.open)', unit: 'ms', summary: summarize(connect.plain), samples: connect.plain, load }];
    for (const name of ['tls', 'tlsSasl'] as const) {
      rows.push({
        bench: 'secured', case: `connect: ${LABEL[name]}, vs plain`, unit: 'ms', summary: summarize(connect[name]), samples: connect[name], load,
        baseline: { label: 'plain, same round', summary: summarize(connect.plain) }, ratios: connect[name].map((ms, i) => ms / connect.plain[i]),
      });
    }
    const handoff = (name: 'plain' | 'tlsSasl') => loop[name].map((rate) => 1000 / rate);
    rows.push(
      { bench: 'secured', case: `lock hand-off, ${CONTENDERS} contenders in a loop: plain`, unit: 'ms', summary: summarize(handoff('plain')), samples: handoff('plain'), load },
      {
        bench: 'secured', case: `lock hand-off, ${CONTENDERS} contenders in a loop: TLS + SASL, vs plain`, unit: 'ms', summary: summarize(handoff('tlsSasl')),
        samples: handoff('tlsSasl'), load, baseline: { label: 'plain, same round', summary: summarize(handoff('plain')) },
        ratios: loop.tlsSasl.map((rate, i) => loop.plain[i] / rate),
      },
    );
    return rows;
  } finally {
    await server.dispose();
    certs.remove();
  }
}

if (require.main === module) {
  void securedBench(Math.max(5, Number(process.argv[2] ?? 7))).then((rows) => {
    console.log(formatTable(rows));
    process.exit(0);
  }, (error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
