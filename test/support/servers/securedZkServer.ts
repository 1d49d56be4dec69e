// Starts Debian's ZooKeeper 3.8 with TLS and/or SASL for the secured tests: one standalone server with a plain
// client port (always: tests use it to check readiness and as "the plain port"), optionally a TLS port or a unified
// port, SASL DIGEST-MD5 users from a JAAS file, and an AdminServer (HTTP or HTTPS). The JVM needs three netty jars
// that zookeeper.jar's manifest forgets, or the Netty server factory (the only one that speaks TLS) cannot load.
import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fourLetterWord, freePort } from '../ports';
import { endsWithTestProcess, exitOf } from '../processes';
import { NETTY_JARS } from './zkServer';
import { CLIENT_PFX_PASSPHRASE, makeTestCertificates, STORE_PASSWORD, TestCertificates } from './testCertificates';

/** SASL users every SASL server knows (user → password). */
export const SASL_USERS = { alice: 'alice-pw', bob: 'bob-pw' } as const;

export interface SecuredServerOptions {
  /** TLS on a separate secure port: the key store kind, and whether a client certificate is required. */
  tls?: { keyStore: 'pkcs12' | 'pem' | 'wrongNamePem'; clientAuth: 'need' | 'none'; tls13Only?: boolean; unified?: boolean };
  /** SASL DIGEST-MD5: 'optional' accepts unauthenticated sessions, 'enforced' closes them (-124). */
  sasl?: 'optional' | 'enforced';
  certificates: TestCertificates;
  /**
   * The AdminServer on a loopback port: plain HTTP, or HTTPS only (Jetty with the server's key store, which the
   * AdminServer takes from the ssl.quorum settings).
   */
  admin?: 'http' | 'https';
  /** JVM flags for a quick start (C1 only), as the plain test servers; false for figures (TLS crypto needs C2). */
  quickStartJvm?: boolean;
  /** Where ports come from (default: freePort); a test of the retry hands out a taken one. */
  choosePort?: () => Promise<number>;
}

// servlet-api: for the AdminServer (Jetty), as the plain test servers have it.
const JARS = [...['zookeeper', 'slf4j-simple', 'servlet-api'].map((name) => `/usr/share/java/${name}.jar`), ...NETTY_JARS];

/** zoo.cfg lines for TLS with the test PKCS#12 key and trust stores (the port itself is set apart). */
export function tlsServerConfigLines(certs: TestCertificates, clientAuth: 'need' | 'none'): string[] {
  return [
    'serverCnxnFactory=org.apache.zookeeper.server.NettyServerCnxnFactory', `ssl.clientAuth=${clientAuth}`,
    `ssl.keyStore.location=${certs.serverP12}`, `ssl.keyStore.password=${STORE_PASSWORD}`,
    `ssl.trustStore.location=${certs.trustStoreP12}`, `ssl.trustStore.password=${STORE_PASSWORD}`,
  ];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The server exited because a port it was given was taken meanwhile. */
class PortTaken extends Error {}

export class SecuredZkServer {
  private proc?: ChildProcess;

  private constructor(
    readonly dir: string,
    readonly plainPort: number,
    /** The TLS port (the plain port itself when unified). */
    readonly tlsPort: number | undefined,
    /** The AdminServer's port, when it runs. */
    readonly adminPort: number | undefined,
    private readonly jvmFlags: string[],
  ) {}

  get plainAddress(): string { return `127.0.0.1:${this.plainPort}`; }
  get tlsAddress(): string {
    if (!this.tlsPort) throw new Error('this server has no TLS port');
    return `127.0.0.1:${this.tlsPort}`;
  }
  get running(): boolean { return !!this.proc && this.proc.exitCode === null && this.proc.signalCode === null; }

  /**
   * Another process can take a port between freePort() and the JVM's bind (the unit and integration tiers run side
   * by side): a server that exited on a bind failure is started again on new ports, as startStandalone does.
   */
  static async start(options: SecuredServerOptions): Promise<SecuredZkServer> {
    for (const jar of JARS) if (!fs.existsSync(jar)) throw new Error(`${jar} is missing: run scripts/zk/ensure-zookeeper.sh`);
    for (let attempt = 1; ; attempt++) {
      try {
        return await SecuredZkServer.startOnce(options);
      } catch (error) {
        if (attempt >= 3 || !(error instanceof PortTaken)) throw error;
      }
    }
  }

  private static async startOnce(options: SecuredServerOptions): Promise<SecuredZkServer> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-secured-'));
    fs.mkdirSync(path.join(dir, 'data'));
    const choosePort = options.choosePort ?? freePort;
    const plainPort = await choosePort();
    const tls = options.tls;
    const tlsPort = tls ? (tls.unified ? plainPort : await choosePort()) : undefined;
    const certs = options.certificates;
    const adminPort = options.admin ? await choosePort() : undefined;
    const lines = [
      'tickTime=2000', `dataDir=${path.join(dir, 'data')}`, `clientPort=${plainPort}`, 'clientPortAddress=127.0.0.1',
      'maxClientCnxns=0', '4lw.commands.whitelist=*',
      ...(adminPort ? ['admin.enableServer=true', 'admin.serverAddress=127.0.0.1', `admin.serverPort=${adminPort}`] : ['admin.enableServer=false']),
    ];
    if (options.admin === 'https') {
      lines.push('admin.forceHttps=true', `ssl.quorum.keyStore.location=${certs.serverP12}`, `ssl.quorum.keyStore.password=${STORE_PASSWORD}`,
        `ssl.quorum.trustStore.location=${certs.trustStoreP12}`, `ssl.quorum.trustStore.password=${STORE_PASSWORD}`);
    }
    if (tls) {
      if (tls.keyStore === 'pkcs12') lines.push(...tlsServerConfigLines(certs, tls.clientAuth));
      else {
        lines.push('serverCnxnFactory=org.apache.zookeeper.server.NettyServerCnxnFactory', `ssl.clientAuth=${tls.clientAuth}`,
          `ssl.keyStore.location=${tls.keyStore === 'pem' ? certs.serverPem : certs.wrongNamePem}`,
          `ssl.trustStore.location=${certs.caCrt}`, 'ssl.trustStore.type=PEM');
      }
      if (tls.unified) {
        // A unified port needs the x509 provider named, or every TLS connection is closed after its handshake.
        lines.push('client.portUnification=true', 'authProvider.x509=org.apache.zookeeper.server.auth.X509AuthenticationProvider');
      } else lines.push(`secureClientPort=${tlsPort}`);
      if (tls.tls13Only) {
        // 3.8.0's default suites have none for TLS 1.3: without them every handshake fails.
        lines.push('ssl.protocol=TLSv1.3', 'ssl.enabledProtocols=TLSv1.3', 'ssl.ciphersuites=TLS_AES_128_GCM_SHA256,TLS_AES_256_GCM_SHA384');
      }
    }
    const jvmFlags: string[] = options.quickStartJvm === false ? [] : ['-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1'];
    if (options.sasl) {
      lines.push('authProvider.1=org.apache.zookeeper.server.auth.SASLAuthenticationProvider');
      if (options.sasl === 'enforced') lines.push('enforce.auth.enabled=true', 'enforce.auth.schemes=sasl');
      const users = Object.entries(SASL_USERS).map(([user, password]) => `  user_${user}="${password}"`).join('\n');
      fs.writeFileSync(path.join(dir, 'jaas.conf'), `Server {\n  org.apache.zookeeper.server.auth.DigestLoginModule required\n${users};\n};\n`);
      jvmFlags.push(`-Djava.security.auth.login.config=${path.join(dir, 'jaas.conf')}`);
    }
    fs.writeFileSync(path.join(dir, 'zoo.cfg'), lines.join('\n') + '\n');
    const server = new SecuredZkServer(dir, plainPort, tlsPort, adminPort, jvmFlags);
    server.startProcess();
    try {
      await server.waitServing();
    } catch (error) {
      await server.stop();
      const bindFailed = !server.running && /BindException|Address already in use/.test(server.logTail(200));
      if (bindFailed) fs.rmSync(dir, { recursive: true, force: true });
      throw bindFailed ? new PortTaken((error as Error).message) : error;
    }
    return server;
  }

  private startProcess(): void {
    const log = fs.openSync(path.join(this.dir, 'server.log'), 'a');
    this.proc = spawn('java', [
      '-Xmx256m', ...this.jvmFlags,
      '-cp', JARS.join(':'), 'org.apache.zookeeper.server.ZooKeeperServerMain', path.join(this.dir, 'zoo.cfg'),
    ], { stdio: ['ignore', log, log] });
    endsWithTestProcess(this.proc);
    fs.closeSync(log);
  }

  /** Waits until `srvr` on the plain port reports a mode (the TLS port is bound by then too). */
  async waitServing(timeoutMs = 60000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (!this.running) throw new Error(`secured ZooKeeper exited:\n${this.logTail()}`);
      if (/Mode: \w+/.test(await fourLetterWord(this.plainPort, 'srvr', 1000))) return;
      await sleep(100);
    }
    throw new Error(`secured ZooKeeper did not start:\n${this.logTail()}`);
  }

  logTail(lines = 20): string {
    try {
      return fs.readFileSync(path.join(this.dir, 'server.log'), 'utf8').split('\n').slice(-lines).join('\n');
    } catch {
      return '(no server log)';
    }
  }

  async stop(): Promise<void> {
    const proc = this.proc;
    if (!proc || !this.running) return;
    const exited = exitOf(proc);
    proc.kill('SIGTERM');
    await Promise.race([exited, sleep(5000).then(() => proc.kill('SIGKILL'))]);
    await exited;
  }

  async restart(): Promise<void> {
    await this.stop();
    this.startProcess();
    await this.waitServing();
  }

  async dispose(): Promise<void> {
    await this.stop();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * JVM flags for Apache's Java client (zkCli, Curator) over TLS with the test client certificate (PKCS#12), and
 * SASL DIGEST-MD5 as `user` through a JAAS file written into `dir`. `classPath`: the Netty jars the client's TLS
 * socket needs beside zookeeper.jar.
 */
export function javaClientSecurityFlags(certs: TestCertificates, dir: string, user: keyof typeof SASL_USERS): { classPath: string[]; flags: string[] } {
  const jaas = path.join(dir, `jaas-${user}.conf`);
  fs.writeFileSync(jaas, `Client {\n  org.apache.zookeeper.server.auth.DigestLoginModule required\n  username="${user}"\n  password="${SASL_USERS[user]}";\n};\n`);
  return {
    classPath: NETTY_JARS,
    flags: [
      '-Dzookeeper.clientCnxnSocket=org.apache.zookeeper.ClientCnxnSocketNetty', '-Dzookeeper.client.secure=true',
      `-Dzookeeper.ssl.keyStore.location=${certs.clientP12}`, `-Dzookeeper.ssl.keyStore.password=${CLIENT_PFX_PASSPHRASE}`,
      `-Dzookeeper.ssl.trustStore.location=${certs.trustStoreP12}`, `-Dzookeeper.ssl.trustStore.password=${STORE_PASSWORD}`,
      `-Djava.security.auth.login.config=${jaas}`,
    ],
  };
}

type Hook = (fn: () => Promise<void>) => unknown;

/** A secured server and the certificates it was made with, for the tests of one suite. */
export interface SuiteServer {
  readonly server: SecuredZkServer;
  readonly certs: TestCertificates;
}

/**
 * A secured server with certificates of its own for one suite (node:test or mocha): made in the suite's `before`,
 * removed in its `after`. Read `server` and `certs` inside tests.
 */
export function securedServerForSuite(hooks: { before: Hook; after: Hook }, options: Omit<SecuredServerOptions, 'certificates'>): SuiteServer {
  let made: { certificates: TestCertificates; remove(): void } | undefined;
  let server: SecuredZkServer | undefined;
  hooks.before(async () => {
    made = temporaryCertificates();
    server = await SecuredZkServer.start({ ...options, certificates: made.certificates });
  });
  hooks.after(async () => {
    await server?.dispose();
    made?.remove();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the secured server is made in the suite\'s before hook');
    return value;
  };
  return {
    get server() { return started(server); },
    get certs() { return started(made?.certificates); },
  };
}

/** Certificates in a fresh temp folder, removed by the returned cleanup. */
export function temporaryCertificates(): { certificates: TestCertificates; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-certs-'));
  return { certificates: makeTestCertificates(dir), remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
