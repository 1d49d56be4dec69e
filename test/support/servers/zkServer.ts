// Starts real ZooKeeper servers (Debian's package, or ZOOKEEPER_HOME) for tests, benchmarks and the demo:
// a standalone server or an ensemble on loopback, each member a java process we can stop, kill and restart.
import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fourLetterWord, freePort, listensOn } from '../ports';
import { endsWithTestProcess, exitOf } from '../processes';
import { sleep } from '../waiting';

export interface ZkServerOptions {
  /** Allow createContainer/createTTL (`zookeeper.extendedTypesEnabled`). */
  extendedTypes?: boolean;
  /** Extra JVM system properties, e.g. `{ 'znode.container.checkIntervalMs': '200' }`. */
  systemProperties?: Record<string, string>;
  /** The JVM's heap limit instead of 256m (e.g. `1g` for a million watches); the later -Xmx wins. */
  maxHeap?: string;
  /** Value of `4lw.commands.whitelist`; null leaves the line out (then only `srvr` answers). */
  fourLetterWhitelist?: string | null;
  /** Start the AdminServer (Jetty) on a loopback port. */
  adminServer?: boolean;
  tickTime?: number;
  /** Parent folder for data dirs; defaults to a fresh temp folder. */
  baseDir?: string;
  clientPort?: number;
  /** Send the server's log here instead of a file in its data dir. */
  logToConsole?: boolean;
  /**
   * TLS on a secure client port of each member, beside the plain one (kept for readiness checks): these zoo.cfg
   * lines (the Netty factory, key and trust stores, client auth) go into every member's config.
   */
  secure?: { configLines: string[] };
  /** More `server.N=` lines for every member's config (an ensemble only), e.g. an observer that is not running. */
  extraServerLines?: string[];
  /**
   * `audit.enable=true`, the audit logger writing `zookeeper_audit.log` in each member's folder with ZooKeeper's
   * documented pattern (`%d{ISO8601} %p %c{2}: %m%n`), through log4j 1.2 (Debian ships it, not logback).
   */
  audit?: boolean;
}

/** The Netty jars zookeeper.jar's manifest forgets: without them the Netty factory (the one with TLS) cannot load. */
export const NETTY_JARS = ['netty-codec', 'netty-resolver', 'netty-transport-native-unix-common'].map((name) => `/usr/share/java/${name}.jar`);

/** log4j 1.2's config for an audited member: the server's own lines on the console, the audit lines in their file. */
function auditLog4jConfig(dir: string): string {
  return [
    'log4j.rootLogger=INFO, CONSOLE',
    'log4j.appender.CONSOLE=org.apache.log4j.ConsoleAppender',
    'log4j.appender.CONSOLE.layout=org.apache.log4j.PatternLayout',
    'log4j.appender.CONSOLE.layout.ConversionPattern=%d{ISO8601} - %-5p [%t:%C{1}@%L] - %m%n',
    'log4j.logger.org.apache.zookeeper.audit.Slf4jAuditLogger=INFO, RFAAUDIT',
    'log4j.additivity.org.apache.zookeeper.audit.Slf4jAuditLogger=false',
    'log4j.appender.RFAAUDIT=org.apache.log4j.RollingFileAppender',
    `log4j.appender.RFAAUDIT.File=${path.join(dir, 'zookeeper_audit.log')}`,
    'log4j.appender.RFAAUDIT.layout=org.apache.log4j.PatternLayout',
    'log4j.appender.RFAAUDIT.layout.ConversionPattern=%d{ISO8601} %p %c{2}: %m%n',
  ].join('\n') + '\n';
}

function classPath(secure: boolean, audit = false): string {
  const home = process.env.ZOOKEEPER_HOME;
  if (audit && home) throw new Error('audited test servers use Debian\'s log4j 1.2 jars: unset ZOOKEEPER_HOME');
  if (home && fs.existsSync(path.join(home, 'lib'))) {
    return [path.join(home, 'lib', '*'), path.join(home, 'conf')].join(':');
  }
  // snappy-java: for snapshots written with zookeeper.snapshot.compression.method=snappy (not in the jar's manifest).
  const logging = audit ? ['/usr/share/java/slf4j-log4j12.jar', '/usr/share/java/log4j-1.2.jar'] : ['/usr/share/java/slf4j-simple.jar'];
  const debian = ['/usr/share/java/zookeeper.jar', '/usr/share/java/servlet-api.jar', ...logging, '/usr/share/java/snappy-java.jar', ...(secure ? NETTY_JARS : [])];
  if (!fs.existsSync(debian[0])) throw new Error('ZooKeeper not found: run scripts/zk/ensure-zookeeper.sh or set ZOOKEEPER_HOME');
  return debian.join(':');
}


export class ZkMember {
  private proc?: ChildProcess;
  constructor(
    readonly id: number,
    readonly dir: string,
    readonly clientPort: number,
    readonly adminPort: number | undefined,
    private readonly systemProps: string[],
    private readonly logToConsole: boolean,
    /** The TLS client port, when the cluster was started with `secure`. */
    readonly secureClientPort?: number,
    /** Started with `audit`: its audit lines go to `auditLogFile`. */
    private readonly audited = false,
  ) {}

  get auditLogFile(): string {
    return path.join(this.dir, 'zookeeper_audit.log');
  }

  /** The java process's pid while it runs (the demo's last-resort kill). */
  get pid(): number | undefined { return this.running ? this.proc?.pid : undefined; }
  get running(): boolean { return !!this.proc && this.proc.exitCode === null && this.proc.signalCode === null; }
  get address(): string { return `127.0.0.1:${this.clientPort}`; }
  get secureAddress(): string {
    if (!this.secureClientPort) throw new Error(`ZooKeeper ${this.id} has no secure client port`);
    return `127.0.0.1:${this.secureClientPort}`;
  }

  start(): void {
    const log = this.logToConsole ? 'inherit' : fs.openSync(this.logFile, 'a');
    this.proc = spawn('java', [
      '-Xmx256m', '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', ...this.systemProps,
      ...(this.audited ? [`-Dlog4j.configuration=file:${path.join(this.dir, 'log4j.properties')}`] : []),
      '-cp', classPath(!!this.secureClientPort, this.audited), 'org.apache.zookeeper.server.quorum.QuorumPeerMain', path.join(this.dir, 'zoo.cfg'),
    ], { stdio: ['ignore', log, log] });
    endsWithTestProcess(this.proc);
    if (typeof log === 'number') fs.closeSync(log);
  }

  /** Waits until the member serves clients (`srvr` reports a mode). */
  async waitServing(timeoutMs = 30000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (!this.running) throw new Error(`ZooKeeper ${this.id} exited; see ${this.logFile}`);
      const answer = await fourLetterWord(this.clientPort, 'srvr', 1000);
      const mode = /Mode: (\w+)/.exec(answer);
      // Someone else's server may have bound the port between freePort() and our JVM (a demo beside a test run):
      // its answer is not ours. Ours then fails to bind and exits, which the check above reports.
      if (mode && listensOn(this.proc!.pid!, this.clientPort)) return mode[1];
      await sleep(100);
    }
    throw new Error(`ZooKeeper ${this.id} on ${this.clientPort} did not start; see ${this.logFile}`);
  }

  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const proc = this.proc;
    if (!proc || !this.running) return;
    const exited = exitOf(proc);
    proc.kill(signal);
    await Promise.race([exited, sleep(5000).then(() => proc.kill('SIGKILL'))]);
    await exited;
  }

  kill(): Promise<void> { return this.stop('SIGKILL'); }

  /**
   * Stops and starts the member on the same ports. While it is down the OS may hand one of them to a client
   * connection as its local port (they are picked from the same range); the JVM then fails to bind and exits. Such
   * a connection is usually short-lived, so a start that failed to bind is tried again a few times.
   */
  async restart(): Promise<void> {
    await this.stop();
    for (let attempt = 1; ; attempt++) {
      const logSize = this.logSize();
      this.start();
      try {
        await this.waitServing();
        return;
      } catch (error) {
        if (this.running || attempt >= 5 || !this.logSince(logSize).includes('java.net.BindException')) throw error;
        await sleep(1000);
      }
    }
  }

  /** The JVM's output, unless the member logs to the console. */
  get logFile(): string {
    return path.join(this.dir, 'server.log');
  }

  private logSize(): number {
    try {
      return fs.statSync(this.logFile).size;
    } catch {
      return 0;
    }
  }

  /** What the member's log file got since it was `from` bytes long ('' when it logs to the console). */
  private logSince(from: number): string {
    try {
      return fs.readFileSync(this.logFile).subarray(from).toString('utf8');
    } catch {
      return '';
    }
  }
}

export class ZkCluster {
  constructor(readonly members: ZkMember[], readonly baseDir: string, private readonly ownsBaseDir: boolean) {}

  get connectString(): string { return this.members.map((m) => m.address).join(','); }
  /** The members' TLS client ports (a cluster started with `secure`). */
  get secureConnectString(): string { return this.members.map((m) => m.secureAddress).join(','); }

  /** The member whose client port (plain or secure) is `port`. */
  member(port: number): ZkMember {
    const found = this.members.find((m) => m.clientPort === port || m.secureClientPort === port);
    if (!found) throw new Error(`no member on port ${port}`);
    return found;
  }

  async stop(): Promise<void> {
    await Promise.all(this.members.map((m) => m.stop()));
    if (this.ownsBaseDir) fs.rmSync(this.baseDir, { recursive: true, force: true });
  }
}

function configText(o: ZkServerOptions, dataDir: string, clientPort: number, adminPort: number | undefined): string {
  const lines = [
    `tickTime=${o.tickTime ?? 2000}`, `initLimit=10`, `syncLimit=5`,
    `dataDir=${dataDir}`, `clientPort=${clientPort}`, `clientPortAddress=127.0.0.1`,
    `maxClientCnxns=0`, `admin.enableServer=${adminPort ? 'true' : 'false'}`,
  ];
  if (adminPort) lines.push(`admin.serverAddress=127.0.0.1`, `admin.serverPort=${adminPort}`);
  if (o.fourLetterWhitelist !== null) lines.push(`4lw.commands.whitelist=${o.fourLetterWhitelist ?? '*'}`);
  if (o.audit) lines.push('audit.enable=true');
  return lines.join('\n') + '\n';
}

/**
 * Starts a cluster; when a member exits at once (a free port taken by someone else before the JVM bound it), tries
 * again with fresh ports, and otherwise fails with the end of the member's log (the folder is removed).
 */
async function startCluster(size: number, o: ZkServerOptions): Promise<ZkCluster> {
  const retries = o.clientPort || o.baseDir ? 0 : 2;
  for (let attempt = 0; ; attempt++) {
    try {
      return await startClusterOnce(size, o);
    } catch (error) {
      if (attempt >= retries || !(error instanceof MemberExited)) throw error;
    }
  }
}

class MemberExited extends Error {}

async function startClusterOnce(size: number, o: ZkServerOptions): Promise<ZkCluster> {
  const ownsBaseDir = !o.baseDir;
  const baseDir = o.baseDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-zk-'));
  const props = o.extendedTypes === false ? [] : ['-Dzookeeper.extendedTypesEnabled=true'];
  for (const [key, value] of Object.entries(o.systemProperties ?? {})) props.push(`-D${key}=${value}`);
  if (o.maxHeap) props.push(`-Xmx${o.maxHeap}`);
  const peers: string[] = [];
  const specs: { dir: string; client: number; admin?: number; secure?: number }[] = [];
  for (let i = 1; i <= size; i++) {
    const dir = path.join(baseDir, `zk${i}`);
    fs.mkdirSync(path.join(dir, 'data'), { recursive: true });
    const client = i === 1 && o.clientPort ? o.clientPort : await freePort();
    const admin = o.adminServer === false ? undefined : await freePort();
    const secure = o.secure ? await freePort() : undefined;
    specs.push({ dir, client, admin, secure });
    if (size > 1) peers.push(`server.${i}=127.0.0.1:${await freePort()}:${await freePort()}`);
  }
  const members = specs.map((s, index) => {
    const id = index + 1;
    let cfg = configText(o, path.join(s.dir, 'data'), s.client, s.admin);
    if (o.secure && s.secure) cfg += [`secureClientPort=${s.secure}`, ...o.secure.configLines].join('\n') + '\n';
    if (size > 1) {
      cfg += [...peers, ...(o.extraServerLines ?? [])].join('\n') + '\n';
      fs.writeFileSync(path.join(s.dir, 'data', 'myid'), `${id}\n`);
    }
    fs.writeFileSync(path.join(s.dir, 'zoo.cfg'), cfg);
    if (o.audit) fs.writeFileSync(path.join(s.dir, 'log4j.properties'), auditLog4jConfig(s.dir));
    return new ZkMember(id, s.dir, s.client, s.admin, props, o.logToConsole ?? false, s.secure, o.audit ?? false);
  });
  members.forEach((m) => m.start());
  const cluster = new ZkCluster(members, baseDir, ownsBaseDir);
  try {
    await Promise.all(members.map((m) => m.waitServing(60000)));
  } catch (error) {
    const exited = members.find((m) => !m.running);
    const tail = exited ? logTail(exited.logFile) : '';
    await cluster.stop();
    if (exited) throw new MemberExited(`${(error as Error).message}\n${tail}`);
    throw error;
  }
  return cluster;
}

function logTail(logFile: string): string {
  try {
    return fs.readFileSync(logFile, 'utf8').split('\n').slice(-15).join('\n');
  } catch {
    return '(no server log)';
  }
}

/** One standalone server on a free loopback port. */
export function startStandalone(options: ZkServerOptions = {}): Promise<ZkCluster> {
  return startCluster(1, options);
}

/** An ensemble of `size` servers on loopback (3 for the fault tests). */
export function startEnsemble(size = 3, options: ZkServerOptions = {}): Promise<ZkCluster> {
  return startCluster(size, options);
}
