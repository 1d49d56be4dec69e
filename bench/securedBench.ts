// Secured connect time: a ZkSession's open() (TCP, ConnectRequest, session granted, CONNECTED) over plain, TLS
// (RSA-2048, clientAuth=need, client certificate) and TLS + SASL DIGEST-MD5, against one server that serves
// all three. Paired: each round opens one of each, in rotating order, and the ratio to plain is taken per round,
// then its median. Standalone (bench/run.ts is another engineer's): `node out/bench/securedBench.js [rounds]`.
import { ZkSession, SessionOptions } from '../src/zk/session';
import { SASL_USERS, SecuredZkServer, temporaryCertificates } from '../test/support/securedZkServer';
import { now } from './stats';

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

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

async function main(): Promise<void> {
  const rounds = Math.max(5, Number(process.argv[2] ?? 15));
  const certs = temporaryCertificates();
  const c = certs.certificates;
  const server = await SecuredZkServer.start({ certificates: c, tls: { keyStore: 'pkcs12', clientAuth: 'need' }, sasl: 'optional', quickStartJvm: false });
  try {
    const tls = { caFile: c.caCrt, certFile: c.clientCrt, keyFile: c.clientKey };
    const kinds: Record<string, SessionOptions> = {
      plain: { connectString: server.plainAddress },
      tls: { connectString: server.tlsAddress, tls },
      tlsSasl: { connectString: server.tlsAddress, tls, sasl: { mechanism: 'DIGEST-MD5', username: 'alice', password: SASL_USERS.alice } },
    };
    const names = Object.keys(kinds);
    // Warm-up: the first TLS handshake after a server start is slow (the JVM loads its TLS stack).
    for (const name of names) await openMs(kinds[name]);
    const samples: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
    for (let round = 0; round < rounds; round++) {
      for (let k = 0; k < names.length; k++) {
        const name = names[(round + k) % names.length];
        samples[name].push(await openMs(kinds[name]));
      }
    }
    const ratio = (name: string) => median(samples[name].map((ms, i) => ms / samples.plain[i]));
    console.log(`secured connect (ZkSession.open, ${rounds} paired rounds, medians)`);
    for (const name of names) {
      console.log(`  ${name.padEnd(8)} ${median(samples[name]).toFixed(1).padStart(7)} ms${name === 'plain' ? '' : `   ×${ratio(name).toFixed(2)} plain`}`);
    }
  } finally {
    await server.dispose();
    certs.remove();
  }
}

void main().then(() => process.exit(0), (error: unknown) => {
  console.error(error);
  process.exit(1);
});
